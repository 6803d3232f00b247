#!/bin/sh
# Whether a catalogue has every message of a template translated, none empty or fuzzy: merges
# PO with POT in a temporary file (PO untouched) and prints what is missing. For the tests of
# the grader's and the demo's catalogues (tests/unit/translations.sh, demo.sh).
#     po/complete.sh POT PO WHAT    (WHAT: how the messages are named in the message)
# Exits 0 when complete, 1 otherwise.
set -u
pot=$1 po=$2 what=$3
merged=$(mktemp)
trap 'rm -f "$merged"' EXIT
msgmerge --quiet --no-location -o "$merged" "$po" "$pot" || { echo "FAIL: $po does not merge"; exit 1; }
status=0
for kind in untranslated only-fuzzy; do
    n=$(msgattrib --$kind --no-obsolete "$merged" | grep -c '^msgid ')
    if [ "$n" -gt 0 ]; then
        echo "FAIL: $((n - 1)) $what are $kind in $po (update it, then translate): $(msgattrib --$kind --no-obsolete "$merged" | grep '^msgid "' | sed -n 2,4p | tr '\n' ' ')"
        status=1
    fi
done
msgfmt --check -o /dev/null "$merged" 2> "$merged.log" || { echo "FAIL: msgfmt --check on $po: $(head -3 "$merged.log")"; status=1; }
rm -f "$merged.log"
exit $status
