#!/bin/sh
# dracut's cmdline hook, the first: the modules /etc/kit/led.conf names,
# then the boot-status LED's first stage.  Sourced: no exit here.
for kit_module in $(sed -n 's/^modules=//p' /etc/kit/led.conf); do
	modprobe -q "$kit_module"
done
mcled stage started || :
