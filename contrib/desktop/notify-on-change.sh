#!/bin/sh
# A previewd hook: a desktop notification when a new song starts.
#   previewd --on-event 'player:/path/to/notify-on-change.sh'
# previewd runs it for every `player` event, with the event in PREVIEWD_*
# variables; it notifies when playback starts or moves on (a skip, the
# previous song's end, a resume), not on a pause or the end of the queue.
[ "$PREVIEWD_STATE" = play ] || exit 0
case "$PREVIEWD_REASON" in user|eof|error) ;; *) exit 0 ;; esac
[ -n "$PREVIEWD_TITLE" ] || exit 0
exec notify-send --app-name=previewd "${PREVIEWD_ARTIST:-previewd}" "$PREVIEWD_TITLE"
