/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LED engine's public header, what mcled includes: its layers'
 * headers, each below the next.  ledclass.h: multicolor LEDs in sysfs,
 * read, written and shown (ledclass.c, ledshow.c, ledtext.h's text);
 * ledset.h: set's request and its plan (ledrequest.c, ledset.c);
 * ledstage.h: the boot-status LED's configuration (ledstage.c,
 * ledstagefile.c).
 */
#ifndef LED_H
#define LED_H

#include "led/ledclass.h"
#include "led/ledset.h"
#include "led/ledstage.h"

#endif
