// Mutant (hostile): reads the grader's tree at compile time by absolute path: the test puts
// the reference solution's full path (tests/gpu/lab01.sh replaces @SOLUTION@) into the
// #include, which no empty folder stops. The compile is confined (Landlock): nvcc may read the
// system, the toolkit and its own folder only, so it must fail to compile, naming the file.
#include "@SOLUTION@"
