#!/bin/sh
# dracut's emergency hook: the rescue shell is next.
# Sourced: no exit here.
mcled stage failed || :
