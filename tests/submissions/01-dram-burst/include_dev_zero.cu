// Mutant (hostile): includes /dev/zero, an endless file the preprocessor reads into memory
// until it has none left. The compile's memory limit (16 GiB) and time limit (180 s) stop it:
// must fail to compile, quickly, and the grader must go on.
#include "lab01.h"
#include "/dev/zero"
