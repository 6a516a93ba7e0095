/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ledstage: the boot-status LED's configuration, /etc/kit/led.conf, and
 * the kernel command line's kit.led=.  Which LED shows the boot's stages
 * and how each stage looks: a color and an mcled action ("#0000ff pattern
 * 0% 500 100% 500").  The initramfs generators' scripts run
 * `mcled stage STAGE`.  ledstage.c parses, with no I/O; ledstagefile.c
 * reads the file and checks each look as mcled set's words.
 */
#ifndef LEDSTAGE_H
#define LEDSTAGE_H

#include <stdio.h>

#include "core/kit.h"
#include "led/ledset.h"

#define LEDSTAGE_CONF	"/etc/kit/led.conf"
#define LEDSTAGE_LINE	512

enum led_stage_id {
	LEDSTAGE_STARTED,	/* the initramfs runs */
	LEDSTAGE_WAITING,	/* for the root device */
	LEDSTAGE_MOUNTED,	/* root mounted, handed over */
	LEDSTAGE_FAILED,	/* the panic or emergency shell */
	LEDSTAGE_COUNT
};

struct led_stage_conf {
	char led[LEDSTAGE_LINE];	/* name or glob; "": the only one */
	char modules[LEDSTAGE_LINE];	/* what the LED needs, loaded first */
	char look[LEDSTAGE_COUNT][LEDSTAGE_LINE];
	/* the file's line of each checked, 0 for a default */
	int led_line, look_line[LEDSTAGE_COUNT];
};

/* The defaults: the only multicolor LED, no modules, the looks above. */
void led_stage_defaults(struct led_stage_conf *conf);

/*
 * The file's text, len bytes, over *conf: KEY=VALUE lines, a '#' that
 * starts a line or follows a blank starts a comment, CRLF ends a line as
 * LF does.  The looks are checked by mcled, which knows its actions.
 * Returns 0, or -1 with the line's number in *line_no and the reason in
 * *e.
 */
int led_stage_parse(struct led_stage_conf *conf, char *text, size_t len,
		    int *line_no, struct kit_err *e);

/* The stage named, or -1. */
int led_stage_find(const char *name);
const char *led_stage_name(enum led_stage_id stage);

/*
 * A look's words as mcled set takes them, in place: COLOR ACTION, then
 * the pattern's text as one argument, or each of the other actions'
 * arguments.  Returns the count (at most max), -1 when there is no
 * action.
 */
int led_stage_look_args(char *look, char **argv, int max);

/*
 * The LED the boot shows its stages on: the last kit.led= of cmdline
 * (the kernel's command line, read as the kernel reads it and cut in
 * place: cmdline_next()), else conf's led.  NULL when that is "off"; ""
 * for the only multicolor LED.  The result points into buf.
 */
const char *led_stage_led(const struct led_stage_conf *conf, char *cmdline,
			  char *buf, size_t size);

/* module added to conf's modules unless it is there; -1: no room. */
int led_stage_add_module(struct led_stage_conf *conf, const char *module);

/*
 * The file at path (missing: none) over the defaults, every value
 * checked, each look's action in action[]: 0, or -1 with *e naming the
 * file's line.
 */
int led_stage_read(struct led_stage_conf *conf, const char *path,
		   enum action action[LEDSTAGE_COUNT], struct kit_err *e);
/*
 * The look of stage as set's words in argv (their text in copy,
 * LEDSTAGE_LINE bytes) and as a checked request: the words' count, or
 * -1 with *e, "PATH:LINE: STAGE=LOOK: why".
 */
int led_stage_request(const struct led_stage_conf *conf, int stage,
		      const char *path, char *copy, char **argv,
		      struct request *req, struct kit_err *e);
/* The trigger module of each look's action added to conf's modules. */
int led_stage_add_triggers(struct led_stage_conf *conf,
			   const enum action action[LEDSTAGE_COUNT],
			   struct kit_err *e);

/* *conf as the file's text, every key in it. */
void led_stage_print(const struct led_stage_conf *conf, FILE *out);

#endif
