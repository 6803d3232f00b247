# Tests: unit (CMocka, any machine) and gpu (exit 77, reported skipped, without a GPU).
# Included from the top-level CMakeLists.txt.

add_executable(json-get tests/tools/json_get.c)
target_link_libraries(json-get PRIVATE PkgConfig::CJSON)
if(TARGET cl_batch)
  add_executable(csv-get tests/tools/csv_get.c)
  target_include_directories(csv-get PRIVATE ${CSV_INCLUDE_DIR})
  target_link_libraries(csv-get PRIVATE ${CSV_LIBRARY})
endif()

# ---- unit ---------------------------------------------------------------------------------
if(TARGET PkgConfig::CMOCKA)
  add_executable(fake_child tests/unit/fake_child.c)

  set(CL_UNIT_TESTS coalesce compare seeded runner cli hints grade report labs build trace_analysis
                    registry wire record sandbox ptxscan sassscan device_scan compile_cache pool
                    i18n child early_check countreq salt confine)
  foreach(t IN LISTS CL_UNIT_TESTS)
    add_executable(test_${t} tests/unit/test_${t}.c)
    target_link_libraries(test_${t} PRIVATE cl_grader PkgConfig::CMOCKA)
    add_test(NAME unit_${t} COMMAND test_${t})
    set_tests_properties(unit_${t} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
  target_compile_definitions(test_runner PRIVATE FAKE_CHILD_PATH="$<TARGET_FILE:fake_child>")
  target_compile_definitions(test_child PRIVATE FAKE_CHILD_PATH="$<TARGET_FILE:fake_child>")
  target_compile_definitions(test_registry PRIVATE CL_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_compile_definitions(test_sassscan PRIVATE CL_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_compile_definitions(test_device_scan PRIVATE CL_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                                      CL_NVCC_PATH="${CMAKE_CUDA_COMPILER}")
  target_compile_definitions(test_compile_cache PRIVATE CL_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                                        CL_NVCC_PATH="${CMAKE_CUDA_COMPILER}")
  target_include_directories(test_trace_analysis PRIVATE ${PROJECT_SOURCE_DIR}/grader/trace)
  add_dependencies(test_runner fake_child)
  add_dependencies(test_child fake_child)
  set_tests_properties(unit_sandbox unit_confine PROPERTIES SKIP_RETURN_CODE 77)
  # Batch grading's parts, where the grader was built with them.
  if(TARGET cl_batch)
    foreach(t intake gradebook course batch)
      add_executable(test_${t} tests/unit/test_${t}.c)
      target_link_libraries(test_${t} PRIVATE cl_batch PkgConfig::CMOCKA)
      add_test(NAME unit_${t} COMMAND test_${t})
      set_tests_properties(unit_${t} PROPERTIES LABELS unit TIMEOUT 120)
    endforeach()
    target_compile_definitions(test_course PRIVATE CL_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    target_compile_definitions(test_batch PRIVATE CL_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                                  CL_NVCC_PATH="${CMAKE_CUDA_COMPILER}")
  endif()
else()
  message(WARNING "CMocka not found (install libcmocka-dev): unit tests are not built")
endif()

# Script tests: the grade program without a GPU, stub/solution agreement, the student's
# Makefile, the figures, and the formatting.
add_test(NAME unit_grade_cli COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/grade_cli.sh
                                     $<TARGET_FILE:grade>)
add_test(NAME unit_student_regions
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/student_regions.sh ${PROJECT_SOURCE_DIR})
add_test(NAME unit_student_makefile
         COMMAND make -s -C ${PROJECT_SOURCE_DIR} -f Makefile.student -j2
                 BUILD=${PROJECT_BINARY_DIR}/student NVCC=${CMAKE_CUDA_COMPILER} all)
# Every mutant patch still applies to the file it names, and compiles.
list(GET CMAKE_CUDA_ARCHITECTURES 0 CL_FIRST_ARCH)
string(REGEX REPLACE "[^0-9]" "" CL_FIRST_ARCH "${CL_FIRST_ARCH}")
add_test(NAME unit_submissions
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/submissions.sh ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CUDA_COMPILER} sm_${CL_FIRST_ARCH})
set_tests_properties(unit_grade_cli unit_student_regions unit_student_makefile unit_submissions
                     PROPERTIES LABELS unit TIMEOUT 300)
set_tests_properties(unit_student_regions unit_submissions PROPERTIES SKIP_RETURN_CODE 77)
# Gradescope's autograder, over a real sshd on 127.0.0.1 (tests/unit/gradescope.sh).
add_test(NAME unit_gradescope COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/gradescope.sh
                                      ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(unit_gradescope PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 300)
# The Slurm job-array recipe on a real single-node Slurm the test starts (tests/unit/slurm.sh).
add_test(NAME unit_slurm COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/slurm.sh ${PROJECT_SOURCE_DIR}
                                 ${PROJECT_BINARY_DIR})
set_tests_properties(unit_slurm PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 300
                                           RESOURCE_LOCK gpu)
# The Classroom workflow template obeys the reporter's unwritten rules.
add_test(NAME unit_classroom_yml
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/classroom_yml.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(unit_classroom_yml PROPERTIES LABELS unit TIMEOUT 60)
# A check written in Python (tests/tools/SCRIPT ARGS...), skipped where there is no python3.
function(cl_python_test name script)
  add_test(NAME ${name}
           COMMAND sh -c "command -v python3 >/dev/null || { echo 'no python3: skipped'; exit 77; }; exec python3 \"$@\"" sh
                   ${PROJECT_SOURCE_DIR}/tests/tools/${script} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 60)
endfunction()
# The grader speaks Chinese: every message translated, LANG and --lang obeyed (needs gettext).
add_test(NAME unit_translations COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/translations.sh
                                        ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(unit_translations PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 60)
# The Chinese handouts say what the English say, section by section.
cl_python_test(unit_zh_sync zh_sync.py ${PROJECT_SOURCE_DIR})
add_test(NAME unit_zh_sync_planted COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/zh_sync_planted.sh
                                           ${PROJECT_SOURCE_DIR})
set_tests_properties(unit_zh_sync_planted PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 60)
# The figures' Chinese renderings: every label of handouts/figures/*.dot translated in
# po/figures-zh_CN.po, and every handouts/figures/zh/NAME.svg a Chinese handout shows there.
cl_python_test(unit_zh_figures ../../tools/zh_figures.py check)
# The HTML workbook renders, with every internal link and figure (needs pandoc).
add_test(NAME unit_workbook COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/workbook.sh
                                    ${PROJECT_SOURCE_DIR})
set_tests_properties(unit_workbook PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 120)
# The live demo in headless Chromium agrees with grade --model (needs clang and Chromium).
add_test(NAME unit_demo COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/demo.sh ${PROJECT_SOURCE_DIR}
                                ${PROJECT_BINARY_DIR})
set_tests_properties(unit_demo PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 300)
# Every grade --model figure quoted in the handouts, and the seed simulator's table, against
# the model itself.
add_test(NAME unit_misconceptions COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/misconceptions.sh
                                          ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(unit_misconceptions PROPERTIES LABELS unit TIMEOUT 120)
# The instructor guide's quote of a course's settings is what the grader prints.
add_test(NAME unit_instructor_guide COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/instructor_guide.sh
                                            ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(unit_instructor_guide PROPERTIES LABELS unit TIMEOUT 60)
# Every explore table a handout quotes is a row of that lab's committed explore CSV.
cl_python_test(unit_explore_tables explore_tables.py ${PROJECT_SOURCE_DIR})
# Every time and bandwidth in a handout's prose is in a quoted block or an explore output it cites.
cl_python_test(unit_prose_numbers prose_numbers.py ${PROJECT_SOURCE_DIR})
# The README's bench table is the committed bench CSV of the H200 (tests/gpu/bench-h200.csv).
cl_python_test(unit_readme_bench readme_bench.py ${PROJECT_SOURCE_DIR})
# Every grade report a handout quotes adds up: parts against thresholds, score, verdict, shares.
cl_python_test(unit_quoted_reports quoted_reports.py ${PROJECT_SOURCE_DIR} $<TARGET_FILE:grade>)
# The student edition must hold no solution and still build with the student's Makefile.
add_test(NAME unit_student_edition
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/unit/student_edition.sh ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR}/edition-test ${CMAKE_CUDA_COMPILER})
set_tests_properties(unit_student_edition PROPERTIES LABELS unit TIMEOUT 300)
if(DOT_EXECUTABLE)
  foreach(dotfile IN LISTS CL_FIGURES)
    get_filename_component(fig "${dotfile}" NAME_WE)
    add_test(NAME unit_figure_${fig}
             COMMAND ${DOT_EXECUTABLE} -Tsvg "${dotfile}" -o ${PROJECT_BINARY_DIR}/${fig}.svg)
    set_tests_properties(unit_figure_${fig} PROPERTIES LABELS unit FAIL_REGULAR_EXPRESSION
                                                       "Warning|Error")
  endforeach()
endif()
find_program(CLANG_FORMAT_EXECUTABLE clang-format)
if(CLANG_FORMAT_EXECUTABLE)
  file(GLOB_RECURSE CL_FORMATTED CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/common/*.[ch] ${PROJECT_SOURCE_DIR}/grader/*.[ch]
       ${PROJECT_SOURCE_DIR}/grader/*.cu ${PROJECT_SOURCE_DIR}/labs/*.cu
       ${PROJECT_SOURCE_DIR}/labs/*.h ${PROJECT_SOURCE_DIR}/solutions/*.cu
       ${PROJECT_SOURCE_DIR}/tests/*.c ${PROJECT_SOURCE_DIR}/tests/*.cu)
  add_test(NAME unit_clang_format
           COMMAND ${CLANG_FORMAT_EXECUTABLE} --dry-run -Werror ${CL_FORMATTED})
  set_tests_properties(unit_clang_format PROPERTIES LABELS unit)
endif()

# ---- gpu ----------------------------------------------------------------------------------
# Every lab of the registry: tests/gpu/labNN.sh runs one case per call. The cases are its
# solution and stub, every mutant in tests/submissions/NN-slug/ (NAME.cu or NAME.patch), and
# those the script itself names in a line "# extra cases: A B ...".
foreach(lab IN LISTS CL_LABS)
  string(SUBSTRING "${lab}" 0 2 num)
  set(script ${PROJECT_SOURCE_DIR}/tests/gpu/lab${num}.sh)
  file(GLOB mutants CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/submissions/${lab}/*.cu
                                      ${PROJECT_SOURCE_DIR}/tests/submissions/${lab}/*.patch)
  set(cases solution stub)
  foreach(m IN LISTS mutants)
    get_filename_component(name "${m}" NAME_WE)
    list(APPEND cases ${name})
  endforeach()
  if(EXISTS ${script})
    file(STRINGS ${script} extra REGEX "^# extra cases:")
    string(REGEX REPLACE "^# extra cases:" "" extra "${extra}")
    separate_arguments(extra)
    list(APPEND cases ${extra})
  endif()
  foreach(c IN LISTS cases)
    add_test(NAME gpu_lab${num}_${c}
             COMMAND sh ${script} ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${c})
    set_tests_properties(gpu_lab${num}_${c} PROPERTIES LABELS "gpu;lab${num}" SKIP_RETURN_CODE 77
                                                       TIMEOUT 300 RESOURCE_LOCK gpu)
  endforeach()
endforeach()
add_test(NAME gpu_counters_vs_ncu
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/counters_vs_ncu.sh ${PROJECT_BINARY_DIR}
                 ${CMAKE_CUDA_COMPILER})
set_tests_properties(gpu_counters_vs_ncu PROPERTIES LABELS "gpu;lab01" SKIP_RETURN_CODE 77
                                                    TIMEOUT 600 RESOURCE_LOCK gpu)
add_test(NAME gpu_engines_agree
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/engines_agree.sh ${PROJECT_BINARY_DIR})
set_tests_properties(gpu_engines_agree PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600
                                                  RESOURCE_LOCK gpu)
# The counting server: the same verdicts and counts with it as without, and every lab counted
# where it is killed (tests/gpu/count_server.sh).
add_test(NAME gpu_count_server
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/count_server.sh ${PROJECT_BINARY_DIR})
set_tests_properties(gpu_count_server PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600
                                                 RESOURCE_LOCK gpu)
# One file and one seed, graded five times: one verdict, one score (tests/gpu/same_verdict.sh).
add_test(NAME gpu_same_verdict
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/same_verdict.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(gpu_same_verdict PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 900
                                                 RESOURCE_LOCK gpu)
# One student cannot slow another: an honest class row beside a sleeper, a re-run staller and a
# hang (tests/gpu/neighbours.sh).
add_test(NAME gpu_neighbours
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/neighbours.sh ${PROJECT_BINARY_DIR}
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(gpu_neighbours PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 900
                                               RESOURCE_LOCK gpu)
# Batch grading: 20 submissions graded, then killed in the middle and resumed (tests/gpu/batch.sh).
add_test(NAME gpu_batch COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/batch.sh ${PROJECT_BINARY_DIR}
                                   ${PROJECT_SOURCE_DIR})
set_tests_properties(gpu_batch PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 1200
                                          RESOURCE_LOCK gpu)

# Every test reads the grader's English (the Chinese tests set their own language): whatever the
# developer's locale, LC_ALL=C.UTF-8 and no LANGUAGE.
get_property(CL_ALL_TESTS DIRECTORY PROPERTY TESTS)
set_property(TEST ${CL_ALL_TESTS} APPEND PROPERTY ENVIRONMENT "LC_ALL=C.UTF-8" "LANGUAGE=")
