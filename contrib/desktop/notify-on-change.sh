#!/bin/sh
# A previewd hook: a desktop notification when another song starts.
#   previewd --on-event 'player:/absolute/path/to/notify-on-change.sh'
# previewd runs it for every `player` event, with the event in PREVIEWD_*
# variables. Pauses, resumes and seeks keep the same song id, so they are
# not announced; the id last announced is kept in the user's own runtime
# directory (never in /tmp, where another user could plant a link).
[ "$PREVIEWD_STATE" = play ] && [ -n "$PREVIEWD_TITLE" ] || exit 0
dir="${XDG_RUNTIME_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}}/previewd"
mkdir -p -m 700 "$dir" || exit 1
last="$dir/notified-songid"
[ "$(cat "$last" 2>/dev/null)" = "$PREVIEWD_SONGID" ] && exit 0
echo "$PREVIEWD_SONGID" > "$last"
exec notify-send --app-name=previewd "${PREVIEWD_ARTIST:-previewd}" "$PREVIEWD_TITLE"
