// The probe configuration: this build stops after the store.
#pragma once
#define STOP_AFTER_STORE 1
