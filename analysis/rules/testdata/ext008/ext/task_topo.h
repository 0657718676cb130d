// Topology macros a port from a standalone kernel brought along: two read
// the launch grid, one the task's args.
#pragma once
#define TASK_BLOCK(a) AscendC::GetBlockIdx()
#define TASK_LANE (AscendC::GetSubBlockIdx())
#define TASK_BLOCKS(a) get_block_num(a)
