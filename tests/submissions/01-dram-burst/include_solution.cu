// Mutant (hostile): reads the grader's tree at compile time. The lab's folder used to be on
// the include path, so this found the reference solution; the kernel is now compiled alone
// with its contract header in an empty folder, so it must fail to compile.
#include "../../solutions/01-dram-burst/kernel.cu"
