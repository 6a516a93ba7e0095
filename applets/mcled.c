// SPDX-License-Identifier: GPL-2.0
/*
 * mcled: multicolor LEDs through the LED class files in sysfs
 * (Documentation/ABI/testing/sysfs-class-led-multicolor).  multi_index
 * names a LED's colors, multi_intensity holds one value per color in that
 * order, brightness scales them all.
 */
#include <stdio.h>
#include <string.h>

#include "core/kit.h"
#include "led/led.h"

static const char usage[] =
"Usage: mcled [-l NAME] [-j] [list]      multicolor LEDs and their state\n"
"       mcled [-l NAME] [-j] get         state, and what each color gets\n"
"       mcled [-l NAME] [-b N|N%] [set VALUE...] [ACTION]\n"
"       mcled [-l NAME] [-j] trigger     the triggers, [the current one]\n"
"\n"
"  -l NAME   the LED: its name in /sys/class/leds, or a shell glob that\n"
"            selects several ('rgb:kbd_backlight*'); default: the only\n"
"            multicolor LED there is\n"
"  -j        JSON output\n"
"  -b N|N%   set brightness: 0 to max_brightness, or a percentage of it\n"
"\n"
"set VALUE... writes multi_intensity, all colors in one write, as:\n"
"  V1 ... Vn        every color, in multi_index order\n"
"  COLOR=V ...      the colors named; the others keep their intensity\n"
"  #RRGGBB [COLOR=V ...]\n"
"                   red, green and blue scaled to max_brightness, every\n"
"                   other color 0 unless named; the # is required\n"
"Values: 0 to max_brightness (from 7.2: each channel's multi_max_intensity),\n"
"read as sysfs reads them: decimal, 0x hex or leading-0 octal (010000 is\n"
"4096; ff8000 is no value, #ff8000 a color).  On a LED that is off with\n"
"no trigger, set also sets brightness to max_brightness (-b 0: stays off).\n"
"Colors: " COLOR_NAMES ".\n"
"\n"
"ACTION sets a trigger, after the color; it drives the brightness:\n"
"  blink ON_MS OFF_MS          the timer trigger\n"
"  pattern 'B MS B MS ...'     the pattern trigger: brightness (a value or\n"
"            [-r N]            N%) and ms pairs, fading in 50 ms steps;\n"
"                              -r N times, -1 (default) for ever\n"
"  heartbeat                   the heartbeat trigger\n"
"  steady                      no trigger, lit at -b or max_brightness\n"
"A blink or heartbeat is at -b, the LED's brightness, or max_brightness.\n"
"\n"
"mcled [-l NAME] stage STAGE [FILE]\n"
"  the boot-status LED shows STAGE: started, waiting, mounted or failed,\n"
"  as FILE (default " LEDSTAGE_CONF ") says; kit.led=NAME on the\n"
"  kernel command line chooses the LED, kit.led=off leaves it alone.\n"
"  Without a multicolor LED, and none chosen, it does nothing.\n"
"mcled stage config [FILE]\n"
"  checks FILE and prints it whole, defaults and trigger modules added\n"
"\n"
"get shows brightness * intensity / max_brightness for each color, as\n"
"the kernel rounds it: to closest from Linux 6.6 (and 6.5.3, 6.4.16,\n"
"6.1.53, 5.15.132), truncated before.\n"
"Environment: KIT_SYSFS  sysfs root (default /sys)\n"
"             KIT_OSRELEASE  kernel version X.Y.Z for get (default uname)\n";

KIT_APPLET(mcled, "multicolor LEDs: list, get, set color and brightness",
	   usage);


/* -l names a file of /sys/class/leds, or several. */
static void check_l(const char *pattern)
{
	if (pattern && strchr(pattern, '/'))
		die_usage("-l %s: " LED_NOT_A_PATH, pattern);
}

/* The multicolor LEDs -l names (NULL: all); get and set want one. */
static struct led *select_leds(const char *pattern, int *count, bool one)
{
	struct kit_err e;
	struct led *leds;

	check_l(pattern);
	leds = led_select(pattern, count, &e);
	if (!leds || (one && led_need_one(leds, *count, pattern, &e)))
		die_err(&e);
	return leds;
}

static int show(const char *pattern, bool json, bool get)
{
	bool closest = get && led_kernel_rounds();
	struct kit_err e;
	int i, n;
	struct led *leds = select_leds(pattern, &n, get);

	for (i = 0; i < n && get; i++) {
		leds[i].trig = xcalloc(1, sizeof(struct trig));
		if (led_read_trig(&leds[i], leds[i].trig, NULL, &e) < 0)
			die_err(&e);
	}
	if (json)
		led_print_json(stdout, leds, n, get, closest);
	for (i = 0; i < n && !json; i++) {
		if (get) {
			led_print_get(stdout, &leds[i], closest);
		} else {
			led_print_list(stdout, &leds[i]);
		}
	}
	return 0;
}

/* trigger: each LED's triggers as the kernel lists them, the current
 * one in brackets; -j: "triggers" and "current". */
static int show_triggers(const char *pattern, bool json)
{
	char line[LEDTEXT_PATTERN_SIZE], *names[256];
	int i, j, n, count, current;
	struct led *leds = select_leds(pattern, &n, false);
	struct kit_err e;

	for (i = 0; i < n; i++) {
		if (led_read_attr(&leds[i], "trigger", line, sizeof(line), &e))
			die_err(&e);
		if (!json) {
			printf("%s: %s\n", leds[i].name, line);
			continue;
		}
		count = led_text_triggers(line, names, 256, &current);
		fputs(i ? ",\n{\"name\":" : "[\n{\"name\":", stdout);
		json_string(stdout, leds[i].name);
		fputs(",\"triggers\":[", stdout);
		for (j = 0; j < count; j++) {
			fputs(j ? "," : "", stdout);
			json_string(stdout, names[j]);
		}
		fputs("],\"current\":", stdout);
		json_string(stdout, current < 0 ? "none" : names[current]);
		putchar('}');
	}
	if (json)
		puts(n ? "\n]" : "[]");
	return 0;
}

/* Every LED is planned and checked before the first write (led_set()). */
static int set(const char *pattern, const char *bright_arg,
	       const char *repeat_arg, int argc, char **argv)
{
	struct request req = { 0 };
	struct kit_err e;
	struct led *leds;
	int n;

	if (led_parse_request(&req, bright_arg, repeat_arg, argc, argv, &e))
		die_err(&e);
	leds = select_leds(pattern, &n, true);
	if (led_set(leds, n, &req, &e))
		die_err(&e);
	return 0;
}

/* stage config: the file checked, each look's trigger module added. */
static int print_stage_conf(struct led_stage_conf *conf,
			    const enum action action[LEDSTAGE_COUNT])
{
	struct kit_err e;

	if (led_stage_add_triggers(conf, action, &e))
		die("stage: %s", e.msg);
	led_stage_print(conf, stdout);
	return 0;
}

/*
 * stage: the LED kit.led=, -l or the file names, else the only multicolor
 * LED; none at all is no error, so that a machine without one boots as
 * it did before kit.
 */
static int stage(const char *pattern, int argc, char **argv)
{
	char copy[LEDSTAGE_LINE], *args[LEDSTAGE_LINE / 2];
	char cmdline[4096] = "", chosen[LEDSTAGE_LINE];
	const char *path = argc == 3 ? argv[2] : LEDSTAGE_CONF;
	enum action action[LEDSTAGE_COUNT];
	struct led_stage_conf conf;
	int id, n, nleds;
	struct request req;
	struct kit_err e;

	if (argc < 2 || argc > 3)
		die_usage("stage takes STAGE [FILE] or config [FILE]");
	check_l(pattern);
	if (led_stage_read(&conf, path, action, &e))
		die("stage: %s", e.msg);
	if (pattern)
		snprintf(conf.led, sizeof(conf.led), "%s", pattern);
	if (!strcmp(argv[1], "config"))
		return print_stage_conf(&conf, action);
	id = led_stage_find(argv[1]);
	if (id < 0)
		die_usage("stage: unknown stage '%s': started, waiting, "
			  "mounted, failed or config", argv[1]);
	n = led_stage_request(&conf, id, path, copy, args, &req, &e);
	if (n < 0)
		die("stage: %s", e.msg);
	read_text("/proc/cmdline", cmdline, sizeof(cmdline));
	pattern = led_stage_led(&conf, cmdline, chosen, sizeof(chosen));
	if (!pattern)
		return 0;
	/* -l's and led='s were checked: it is kit.led='s. */
	if (strchr(pattern, '/'))
		die("stage: kit.led=%s on the kernel command line: "
		    LED_NOT_A_PATH, pattern);
	if (!*pattern) {
		select_leds(NULL, &nleds, false);
		if (!nleds)
			return 0;
		if (nleds > 1)
			die("stage: %d multicolor LEDs; choose one: led= in %s, "
			    "or kit.led= on the kernel command line", nleds,
			    path);
		pattern = NULL;
	}
	/* Lit whatever it was: steady would keep an unlit LED dark. */
	return set(pattern, req.action == ACT_PATTERN ? NULL : "100%", NULL,
		   n, args);
}

int mcled_main(int argc, char **argv)
{
	const char *pattern = NULL, *bright_arg = NULL, *repeat_arg = NULL;
	const char *cmd;
	bool json = false;
	int opt;

	while ((opt = kit_getopt(argc, argv, "l:jb:r:", NULL)) != -1) {
		if (opt == 'l')
			pattern = optarg;
		else if (opt == 'j')
			json = true;
		else if (opt == 'b')
			bright_arg = optarg;
		else
			repeat_arg = optarg;
	}
	argc -= optind;
	argv += optind;
	cmd = argc ? argv[0] : bright_arg ? "set" : "list";
	if (!strcmp(cmd, "stage") && (json || bright_arg || repeat_arg))
		die_usage("stage takes -l only: its look comes from the file");
	if (!strcmp(cmd, "stage"))
		return stage(pattern, argc, argv);
	if (!strcmp(cmd, "set") || led_action_of(cmd)) {
		if (json)
			die_usage("-j goes with list, get and trigger");
		return set(pattern, bright_arg, repeat_arg, argc, argv);
	}
	if (strcmp(cmd, "list") && strcmp(cmd, "get") &&
	    strcmp(cmd, "trigger"))
		die_usage("unknown command '%s': list, get, set, trigger, "
			  "blink, pattern, heartbeat or steady", cmd);
	if (bright_arg)
		die_usage("-b goes with set and the triggers, or alone");
	if (repeat_arg)
		die_usage("-r goes with pattern");
	if (argc > 1)
		die_usage("%s takes no arguments", cmd);
	if (!strcmp(cmd, "trigger"))
		return show_triggers(pattern, json);
	return show(pattern, json, !strcmp(cmd, "get"));
}
