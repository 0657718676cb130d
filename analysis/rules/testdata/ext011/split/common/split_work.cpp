// Host tiling shared by the split operators: the work in units of 8
// elements spread over at most `cores` blocks, so that every block it
// counts in usedCores gets at least one unit (a single block may get the
// few elements short of a unit, or none: it waits for nobody).
#include <cstdint>

constexpr uint32_t kUnitBytes = 32;
constexpr uint32_t kElemBytes = 4;
constexpr uint32_t kUnit = kUnitBytes / kElemBytes;

struct SplitTiling {
  uint32_t total;
  uint32_t usedCores;
  uint32_t first[48];
  uint32_t count[48];
};

SplitTiling SplitWork(uint32_t total, uint32_t cores) {
  SplitTiling t;
  t.total = total;
  t.usedCores = 0;
  for (uint32_t i = 0; i < cores; ++i) {
    t.first[i] = 0;
    t.count[i] = 0;
  }
  uint32_t units = total / kUnit;
  uint32_t rest = total % kUnit;
  if (units == 0) {
    t.count[0] = rest;
    t.usedCores = 1;
  } else if (units <= cores) {
    for (uint32_t i = 0; i < units; ++i) {
      t.first[i] = i * kUnit;
      t.count[i] = kUnit;
    }
    t.count[units - 1] += rest;
    t.usedCores = units;
  } else {
    uint32_t per = units / cores;
    uint32_t extra = units % cores;
    uint32_t at = 0;
    uint32_t mine = 0;
    for (uint32_t i = 0; i < cores; ++i) {
      if (i < extra) {
        mine = (per + 1) * kUnit;
      } else {
        mine = per * kUnit;
      }
      t.first[i] = at;
      t.count[i] = mine;
      at += mine;
    }
    t.count[cores - 1] += rest;
    t.usedCores = cores;
  }
  return t;
}

uint32_t FillSplit(SplitTiling *out, uint32_t total, uint32_t cores) {
  SplitTiling t = SplitWork(total, cores);
  CopyTiling(out, t);
  return t.usedCores;
}

// The work divided evenly over every core: with less work than cores a
// block's share is 0.
SplitTiling SplitThin(uint32_t total, uint32_t cores) {
  SplitTiling t;
  uint32_t per = total / cores;
  for (uint32_t i = 0; i < cores; ++i) {
    t.first[i] = i * per;
    t.count[i] = per;
  }
  t.usedCores = cores;
  return t;
}

uint32_t FillThin(SplitTiling *out, uint32_t total, uint32_t cores) {
  SplitTiling t = SplitThin(total, cores);
  CopyTiling(out, t);
  return t.usedCores;
}
