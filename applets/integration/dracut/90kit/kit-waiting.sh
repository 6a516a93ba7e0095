#!/bin/sh
# dracut's pre-trigger hook: udev runs, the root device is awaited.
# Sourced: no exit here.
mcled stage waiting || :
