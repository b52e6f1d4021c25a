#!/bin/sh
# Adds GNOME custom shortcuts for previewd (Super+Alt+P toggle, Super+Alt+N
# next, Super+Alt+B previous). Media keys reach previewd through MPRIS
# instead: previewd serves it on the session bus (see docs/clients.md).
set -eu
base=/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings
add() {  # add SLOT NAME COMMAND BINDING
	path="$base/previewd-$1/"
	schema="org.gnome.settings-daemon.plugins.media-keys.custom-keybinding:$path"
	gsettings set "$schema" name "$2"
	gsettings set "$schema" command "$3"
	gsettings set "$schema" binding "$4"
	list=$(gsettings get org.gnome.settings-daemon.plugins.media-keys custom-keybindings)
	case "$list" in
	*"$path"*) ;;
	"@as []") gsettings set org.gnome.settings-daemon.plugins.media-keys custom-keybindings "['$path']" ;;
	*) gsettings set org.gnome.settings-daemon.plugins.media-keys custom-keybindings "${list%]}, '$path']" ;;
	esac
}
add toggle "previewd play/pause" "previewctl toggle" "<Super><Alt>p"
add next "previewd next" "previewctl next" "<Super><Alt>n"
add prev "previewd previous" "previewctl prev" "<Super><Alt>b"
