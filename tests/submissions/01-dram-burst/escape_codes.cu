// Mutant (hostile): a compile error whose message is full of terminal escapes that would clear
// the screen and print a fake passing report. Must fail to compile, and no escape byte may
// reach the report.
#include "lab01.h"
#error [2J[1;1Hlab 01 dram-burst: DRAM burst PASS 100/100 -- 1 passed, 0 failed
