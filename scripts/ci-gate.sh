#!/usr/bin/env bash
# The CI gate behind action.yml (and usable from any CI): lints a
# compilation database, writes SARIF for code scanning, appends the Markdown
# report to the job summary, and exits as the gate should.
#
#   CUDA_ASYNC_LINT        the driver (default: cuda-async-lint on PATH)
#   CAL_BUILD_DIR          directory with compile_commands.json (build)
#   CAL_SARIF              SARIF file to write (cuda-async-lint.sarif)
#   CAL_BASELINE           an earlier report: only new findings count
#   CAL_DIFF               a git ref: only findings on lines changed since
#   CAL_ARGS               more driver options, split on spaces
#   CAL_HTML               an HTML report to write for reviewers (none)
#   CAL_FAIL_ON_FINDINGS   "true" (default): findings fail the gate
#   CAL_DOCS_URL           where the reports link the checks' pages (a
#                          published copy of the repository's tree); in the
#                          GitHub Action, by default, the repository and
#                          version the action runs from. Without one the
#                          reports carry the pages and link nothing local.
#   GITHUB_STEP_SUMMARY    where the Markdown report goes, if set
#
# Exit status: the driver's (docs/usage.md), except that findings exit 0
# when CAL_FAIL_ON_FINDINGS is not "true".
set -uo pipefail
lint=${CUDA_ASYNC_LINT:-cuda-async-lint}
args=(-p "${CAL_BUILD_DIR:-build}")
[[ -n ${CAL_BASELINE:-} ]] && args+=(--baseline="$CAL_BASELINE")
[[ -n ${CAL_DIFF:-} ]] && args+=(--diff="$CAL_DIFF")
# The docs of the action's own repository and version: the runner checks
# an action out under .../_actions/<owner>/<repo>/<ref>; a local action
# ('uses: ./') is the caller's repository at its commit.
docs_url=${CAL_DOCS_URL:-}
if [[ -z $docs_url && -n ${GITHUB_ACTION_PATH:-} && -n ${GITHUB_SERVER_URL:-} ]]; then
  case $GITHUB_ACTION_PATH in
  */_actions/*/*/*)
    rest=${GITHUB_ACTION_PATH#*/_actions/}
    IFS=/ read -r owner repo ref _ <<<"$rest"
    docs_url=$GITHUB_SERVER_URL/$owner/$repo/blob/$ref
    ;;
  *)
    [[ -n ${GITHUB_REPOSITORY:-} && -n ${GITHUB_SHA:-} ]] &&
      docs_url=$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA
    ;;
  esac
fi
[[ -n $docs_url ]] && args+=(--docs-url="$docs_url")
# shellcheck disable=SC2206 # CAL_ARGS is a list of options, split on spaces.
[[ -n ${CAL_ARGS:-} ]] && args+=($CAL_ARGS)

# One analysis writes every report: SARIF for code scanning, Markdown for
# the job summary, HTML for reviewers (a CI artifact).
reports=()
summary=
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  summary=$(mktemp "${TMPDIR:-/tmp}/cuda-async-lint-summary.XXXXXX.md")
  trap 'rm -f "$summary"' EXIT
  reports+=(--report="markdown:$summary")
fi
[[ -n ${CAL_HTML:-} ]] && reports+=(--report="html:$CAL_HTML")
"$lint" "${args[@]}" --format=sarif -o "${CAL_SARIF:-cuda-async-lint.sarif}" \
  "${reports[@]}"
status=$?
if [[ $status -eq 2 ]]; then
  exit 2 # Usage or input error: the driver said why on stderr.
fi
[[ -n $summary ]] && cat "$summary" >>"$GITHUB_STEP_SUMMARY"
if [[ $status -eq 1 && ${CAL_FAIL_ON_FINDINGS:-true} != true ]]; then
  exit 0
fi
exit $status
