#!/bin/bash
# kit in a dracut initramfs (README, "dracut"): only when asked for
# (dracut --add kit, or add_dracutmodules+=" kit " in /etc/dracut.conf.d/).
# kit as /usr/bin/kit with a link per applet where dracut put no command
# of that name, the boot-status LED's configuration, checked and whole,
# as /etc/kit/led.conf, the modules it names, and a hook per stage.
# make install writes kit's path for @BINDIR@.

check() {
	return 255
}

depends() {
	return 0
}

install() {
	local kit='@BINDIR@/kit' module

	inst_binary "$kit" /usr/bin/kit
	"$initdir/usr/bin/kit" --install -s "$initdir/usr/bin" || return 1
	mkdir -p "$initdir/etc/kit"
	if ! "$kit" mcled stage config /etc/kit/led.conf >"$initdir/etc/kit/led.conf"; then
		dfatal "kit: fix /etc/kit/led.conf (README, \"The boot-status LED\")"
		return 1
	fi
	for module in $(sed -n 's/^modules=//p' "$initdir/etc/kit/led.conf"); do
		instmods "$module"
	done
	inst_hook cmdline 01 "$moddir/kit-started.sh"
	inst_hook pre-trigger 99 "$moddir/kit-waiting.sh"
	inst_hook pre-pivot 99 "$moddir/kit-mounted.sh"
	inst_hook emergency 01 "$moddir/kit-failed.sh"
}
