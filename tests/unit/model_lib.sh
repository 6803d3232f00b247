# model_lib.sh - sourced by the tests that hold a page or a handout to the coalescing model
# (demo.sh, misconceptions.sh); needs $build (the build folder) and $t (a scratch folder).
# model ARGS...: "SECTORS LINES EFFICIENCY%" as 'grade --model ARGS' prints them, or "refused".
model() {
    "$build/grade" --model --figure "$t/m.dot" "$@" > "$t/m.txt" 2>&1 || { echo refused; return; }
    awk '/sectors touched/ { s = $NF } /lines touched/ { l = $NF }
         /^  efficiency/ { e = $2 } END { print s, l, e }' "$t/m.txt"
}
