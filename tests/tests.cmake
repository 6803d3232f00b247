# Tests: unit (CMocka, any machine) and gpu (exit 77, reported skipped, without a GPU).
# Included from the top-level CMakeLists.txt.

add_executable(json-get tests/tools/json_get.c)
target_link_libraries(json-get PRIVATE PkgConfig::CJSON)

# ---- unit ---------------------------------------------------------------------------------
if(TARGET PkgConfig::CMOCKA)
  add_executable(fake_child tests/unit/fake_child.c)

  set(CL_UNIT_TESTS coalesce compare seeded runner cli hints grade report labs build trace_analysis)
  foreach(t IN LISTS CL_UNIT_TESTS)
    add_executable(test_${t} tests/unit/test_${t}.c)
    target_link_libraries(test_${t} PRIVATE cl_grader PkgConfig::CMOCKA)
    add_test(NAME unit_${t} COMMAND test_${t})
    set_tests_properties(unit_${t} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
  target_compile_definitions(test_runner PRIVATE FAKE_CHILD_PATH="$<TARGET_FILE:fake_child>")
  add_dependencies(test_runner fake_child)
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
set_tests_properties(unit_grade_cli unit_student_regions unit_student_makefile
                     PROPERTIES LABELS unit TIMEOUT 300)
set_tests_properties(unit_student_regions PROPERTIES SKIP_RETURN_CODE 77)
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
set(CL_LAB01_CASES solution stub stub_nobody index_bug swapped oob_write hang crash no_compile wrong_name
                   pairs cpu_copy)
foreach(c IN LISTS CL_LAB01_CASES)
  add_test(NAME gpu_lab01_${c}
           COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/lab01.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR} ${c})
  set_tests_properties(gpu_lab01_${c} PROPERTIES LABELS "gpu;lab01" SKIP_RETURN_CODE 77
                                                 TIMEOUT 300 RESOURCE_LOCK gpu)
endforeach()
set(CL_LAB02_CASES solution stub scatter_writes no_transpose tile_edge)
foreach(c IN LISTS CL_LAB02_CASES)
  add_test(NAME gpu_lab02_${c}
           COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/lab02.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR} ${c})
  set_tests_properties(gpu_lab02_${c} PROPERTIES LABELS "gpu;lab02" SKIP_RETURN_CODE 77
                                                 TIMEOUT 300 RESOURCE_LOCK gpu)
endforeach()
set(CL_LAB03_CASES solution stub axpby_unfixed swapped_axpby colmajor_rowindex)
foreach(c IN LISTS CL_LAB03_CASES)
  add_test(NAME gpu_lab03_${c}
           COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/lab03.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR} ${c})
  set_tests_properties(gpu_lab03_${c} PROPERTIES LABELS "gpu;lab03" SKIP_RETURN_CODE 77
                                                 TIMEOUT 300 RESOURCE_LOCK gpu)
endforeach()
set(CL_LAB04_CASES solution stub naive_x_on_columns tiles_x_on_rows swapped_index tile_edge)
foreach(c IN LISTS CL_LAB04_CASES)
  add_test(NAME gpu_lab04_${c}
           COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/lab04.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR} ${c})
  set_tests_properties(gpu_lab04_${c} PROPERTIES LABELS "gpu;lab04" SKIP_RETURN_CODE 77
                                                 TIMEOUT 300 RESOURCE_LOCK gpu)
endforeach()
set(CL_LAB05_CASES solution stub strided_corner_turn transpose_edge unpadded)
set(CL_LAB06_CASES solution stub naive_conversion float4_aos swapped_fields unaligned_planes)
set(CL_LAB07_CASES solution stub pitch_unused writes_padding packed_upload)
foreach(lab 05 06 07)
  foreach(c IN LISTS CL_LAB${lab}_CASES)
    add_test(NAME gpu_lab${lab}_${c}
             COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/lab${lab}.sh ${PROJECT_BINARY_DIR}
                     ${PROJECT_SOURCE_DIR} ${c})
    set_tests_properties(gpu_lab${lab}_${c} PROPERTIES LABELS "gpu;lab${lab}" SKIP_RETURN_CODE 77
                                                       TIMEOUT 300 RESOURCE_LOCK gpu)
  endforeach()
endforeach()
add_test(NAME gpu_counters_vs_ncu
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/counters_vs_ncu.sh ${PROJECT_BINARY_DIR})
set_tests_properties(gpu_counters_vs_ncu PROPERTIES LABELS "gpu;lab01" SKIP_RETURN_CODE 77
                                                    TIMEOUT 600 RESOURCE_LOCK gpu)
add_test(NAME gpu_engines_agree
         COMMAND sh ${PROJECT_SOURCE_DIR}/tests/gpu/engines_agree.sh ${PROJECT_BINARY_DIR})
set_tests_properties(gpu_engines_agree PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600
                                                  RESOURCE_LOCK gpu)
