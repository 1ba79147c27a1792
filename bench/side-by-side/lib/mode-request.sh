# Sourced by paired.sh, profile.sh and stream-cost.sh: the gateway request of a harness mode, as run.sh sends it.
# mode_request MODE -> sets BODY (the request body file) and REQUEST_PATH; returns 1 for an unknown mode.
mode_request() {
  REQUEST_PATH=/v1/chat/completions
  case $1 in
    gemini) BODY=$BENCH/bodies/gemini-via-chat.json ;;
    gemini-stream) BODY=$BENCH/bodies/gemini-via-chat-stream.json ;;
    chat|chat-stream) BODY=$BENCH/bodies/$1.json ;;
    responses|responses-stream) BODY=$BENCH/bodies/gemini-via-$1.json; REQUEST_PATH=/v1/responses ;;
    messages|messages-stream) BODY=$BENCH/bodies/gemini-via-$1.json; REQUEST_PATH=/v1/messages ;;
    *) return 1 ;;
  esac
}
