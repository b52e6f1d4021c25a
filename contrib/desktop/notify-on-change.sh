#!/bin/sh
# Desktop notification on every song change, from `previewctl watch`.
# Start it with the session (e.g. `exec` in sway, or a systemd user unit).
previewctl watch --format '[%artist% - ]%title%' | while IFS= read -r line; do
	[ -n "$line" ] && notify-send --app-name=previewd "Now playing" "$line"
done
