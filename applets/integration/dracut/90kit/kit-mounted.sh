#!/bin/sh
# dracut's pre-pivot hook: the root is mounted, about to be handed over.
# Sourced: no exit here.
mcled stage mounted || :
