#pragma once
constexpr int kTile = 128;
