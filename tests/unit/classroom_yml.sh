#!/bin/sh
# tools/classroom/classroom.yml obeys what GitHub Classroom's reporter silently requires (see
# ../shared/reviews/ecosystem.md, 2.1): the workflow named "Autograding Tests", exactly one job,
# "run-autograding-tests"; the reporter told the grade step's id in `runners`, and given its
# result in the variable <ID>_RESULTS; the grade step emitting --format classroom as `result`.
#     classroom_yml.sh SOURCE_DIR
set -u
f=$1/tools/classroom/classroom.yml
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
top_name=$(sed -n 's/^name: *//p' "$f")
jobs=$(awk '/^jobs:/ { in_jobs = 1; next } /^[^ #]/ { in_jobs = 0 } in_jobs && /^  [^ #][^:]*:/ { sub(/:.*/, ""); sub(/^ */, ""); print }' "$f")
runners=$(sed -n 's/^ *runners: *//p' "$f")
check workflow-name "[ '$top_name' = 'Autograding Tests' ]"
check one-job "[ '$jobs' = 'run-autograding-tests' ]"
check gpu-runner "grep -q 'runs-on: \[self-hosted, gpu\]' '$f'"
check grade-step-id "grep -q '^ *id: $runners\$' '$f'"
upper=$(echo "$runners" | tr '[:lower:]-' '[:upper:]_')
check results-variable "grep -q \"${upper}_RESULTS: .*steps.${runners}.outputs.result\" '$f'"
check classroom-format "grep -q 'grade --format classroom' '$f' && grep -q 'echo \"result=' '$f'"
[ $fails -eq 0 ] && echo "classroom.yml ok"
exit $((fails > 0))
