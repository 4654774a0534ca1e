#!/bin/sh
# toolgate in CI: lint (a SARIF file for code scanning, and a log), the policy tests, the layout of the YAML
# files (toolgate fmt --check: prettier's), and checks that the generated types and the compiled controller
# are current. Exits 0 when all pass, 1 on findings, 2 when toolgate cannot run (no configuration, usage error).
#
# Environment (all optional):
#   TOOLGATE                the command (default: npx --no-install toolgate)
#   TOOLGATE_CONFIG         the configuration file (default: discovered from the working directory)
#   TOOLGATE_SARIF          where the SARIF log goes (default: toolgate.sarif)
#   TOOLGATE_LOG_FORMAT     the lint output in the log: stylish (default) or github (annotations)
#   TOOLGATE_MAX_WARNINGS   fail when lint finds more warnings than this (default: no limit)
#   TOOLGATE_FMT_CHECK      true (default) or false: whether the YAML files must be laid out as toolgate fmt does
#   TOOLGATE_CODEGEN_CHECK  auto (default) or true: compare codegen.out when the configuration sets it, else
#                           check that the types generate; false: skip
#   TOOLGATE_COMPILE_CHECK  the same for compile.out and the compiled controller
#   TOOLGATE_VERIFY         auto (default): toolgate verify when the configuration file (TOOLGATE_CONFIG, else
#                           toolgate.config.yaml) lists property files under properties:; strict: the same with
#                           --strict; false: skip
set -u
toolgate=${TOOLGATE:-npx --no-install toolgate}
sarif=${TOOLGATE_SARIF:-toolgate.sarif}
set --
if [ -n "${TOOLGATE_CONFIG:-}" ]; then set -- --config "$TOOLGATE_CONFIG"; fi
status=0

step() { printf '\n== toolgate %s\n' "$*"; }
# Records a failure (1); stops at once when toolgate could not run at all (2).
check() {
  code=$1
  if [ "$code" -eq 2 ]; then
    echo "toolgate could not run (exit 2): see the message above" >&2
    exit 2
  fi
  if [ "$code" -ne 0 ]; then status=1; fi
}

step lint
warnings=""
if [ -n "${TOOLGATE_MAX_WARNINGS:-}" ]; then warnings="--max-warnings $TOOLGATE_MAX_WARNINGS"; fi
$toolgate lint "$@" --format sarif $warnings > "$sarif"
code=$?
$toolgate lint "$@" --format "${TOOLGATE_LOG_FORMAT:-stylish}" $warnings
check "$code"
echo "SARIF: $sarif"

step test
$toolgate test "$@"
check $?

if [ "${TOOLGATE_FMT_CHECK:-true}" != false ]; then
  step "fmt --check"
  $toolgate fmt "$@" --check
  check $?
fi

# With no codegen.out or compile.out in the configuration, `--check` builds in memory and has nothing to compare.
for command in codegen compile; do
  if [ "$command" = codegen ]; then mode=${TOOLGATE_CODEGEN_CHECK:-auto}; else mode=${TOOLGATE_COMPILE_CHECK:-auto}; fi
  [ "$mode" = false ] && continue
  step "$command --check"
  $toolgate "$command" "$@" --check
  check $?
done

# A configuration without property files has nothing to verify; the key is looked for in the file itself so
# that a missing list is not mistaken for a usage error of toolgate verify.
verify=${TOOLGATE_VERIFY:-auto}
if [ "$verify" != false ] && grep -q '^properties:' "${TOOLGATE_CONFIG:-toolgate.config.yaml}" 2>/dev/null; then
  step verify
  strict=""
  if [ "$verify" = strict ]; then strict="--strict"; fi
  $toolgate verify "$@" --format "${TOOLGATE_LOG_FORMAT:-stylish}" $strict
  check $?
fi

exit "$status"
