// SPDX-License-Identifier: GPL-2.0
/* Unit tests of mcled's parsing and arithmetic: the LED class engine's
 * (applets/led/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kit.h"
#include "led/led.h"
#include "unit.h"

static void test_colors(void)
{
	char line[64] = "green blue red", too_many[128], too_long[] = "red "
		"a-color-name-longer-than-the-kernel-has";
	char color[MAX_COLORS][COLOR_LEN];
	int i;

	check("multi_index splits in order",
	      led_split_colors(line, color) == 3 && !strcmp(color[0], "green") &&
	      !strcmp(color[1], "blue") && !strcmp(color[2], "red"));
	*too_many = '\0';
	for (i = 0; i <= MAX_COLORS; i++)
		strcat(too_many, "red ");
	check("multi_index of 16 colors refused",
	      led_split_colors(too_many, color) == -1);
	check("multi_index with a long name refused",
	      led_split_colors(too_long, color) == -1);
	strcpy(line, "");
	check("empty multi_index refused", led_split_colors(line, color) == -1);
	strcpy(line, "red (null) white");
	check("(null) from 6.1-6.6 kernels is kept as a name",
	      led_split_colors(line, color) == 3 && !strcmp(color[1], "(null)"));
	check("known colors: white, lime, multicolor",
	      led_known_color("white") && led_known_color("lime") &&
	      led_known_color("multicolor"));
	check("unknown colors: purpel, (null), empty, prefix, suffix",
	      !led_known_color("purpel") && !led_known_color("(null)") &&
	      !led_known_color("") && !led_known_color("re") && !led_known_color("reds"));
}

static void test_intensities(void)
{
	long value[MAX_COLORS];
	char buf[64];

	check("multi_intensity parses",
	      led_parse_intensities("43 226 138", value, MAX_COLORS) == 3 &&
	      value[0] == 43 && value[1] == 226 && value[2] == 138);
	check("multi_intensity negative (as %d shows it)",
	      led_parse_intensities("-1 0", value, MAX_COLORS) == 2 &&
	      value[0] == -1);
	check("multi_intensity junk refused",
	      led_parse_intensities("1 x 3", value, MAX_COLORS) == -1 &&
	      led_parse_intensities("1 2x", value, MAX_COLORS) == -1);
	check("multi_intensity longer than max refused",
	      led_parse_intensities("1 2 3", value, 2) == -1);
	value[0] = 43, value[1] = 226, value[2] = 138;
	led_format_intensities(value, 3, buf, sizeof(buf));
	check("write text has no space before the newline",
	      !strcmp(buf, "43 226 138\n"));
	led_format_intensities(value, 1, buf, sizeof(buf));
	check("write text of one color", !strcmp(buf, "43\n"));
}

static void test_values(void)
{
	long v;

	check("value decimal", !led_parse_value("255", &v) && v == 255);
	check("value 0x hex", !led_parse_value("0xff", &v) && v == 255);
	check("value leading-0 octal", !led_parse_value("010", &v) && v == 8);
	check("value 010000 (also six hex digits) is octal 4096",
	      !led_parse_value("010000", &v) && v == 4096);
	check("value ff8000 refused", led_parse_value("ff8000", &v) == -1);
	check("value with a sign or a space refused",
	      led_parse_value("+1", &v) == -1 && led_parse_value(" 1", &v) == -1);
	check("value 0", !led_parse_value("0", &v) && v == 0);
	check("value negative refused", led_parse_value("-1", &v) == -1);
	check("value junk refused",
	      led_parse_value("", &v) == -1 && led_parse_value("12a", &v) == -1 &&
	      led_parse_value("09", &v) == -1 && led_parse_value("0x", &v) == -1);
	check("value overflow refused",
	      led_parse_value("99999999999999999999999", &v) == -1);
}

static void test_rgb(void)
{
	unsigned char rgb[3];

	check("8a2be2", !led_parse_rgb("8a2be2", rgb) && rgb[0] == 0x8a &&
	      rgb[1] == 0x2b && rgb[2] == 0xe2);
	check("RRGGBB upper case",
	      !led_parse_rgb("FF8000", rgb) && rgb[0] == 255 && rgb[1] == 128 &&
	      rgb[2] == 0);
	check("bad colors refused",
	      led_parse_rgb("12345", rgb) && led_parse_rgb("1234567", rgb) &&
	      led_parse_rgb("12345g", rgb) && led_parse_rgb("", rgb) &&
	      led_parse_rgb("#12345", rgb) && led_parse_rgb("0x1234", rgb));
	check("component scale to max 255 is identity",
	      led_scale_component(0, 255) == 0 &&
	      led_scale_component(138, 255) == 138 &&
	      led_scale_component(255, 255) == 255);
	check("component scale rounds: 128 of 100 -> 50, 127 -> 50, 1 -> 0",
	      led_scale_component(128, 100) == 50 &&
	      led_scale_component(127, 100) == 50 &&
	      led_scale_component(1, 100) == 0);
	check("component scale to max 4095",
	      led_scale_component(255, 4095) == 4095 &&
	      led_scale_component(128, 4095) == 2056);
}

static void test_brightness(void)
{
	bool percent;
	long v;

	check("-b 128", !led_text_level("128", &v, &percent) && v == 128 &&
	      !percent);
	check("-b 50%", !led_text_level("50%", &v, &percent) && v == 50 &&
	      percent);
	check("-b 0% and 100%",
	      !led_text_level("0%", &v, &percent) && v == 0 &&
	      !led_text_level("100%", &v, &percent) && v == 100);
	check("-b bad: 101%, -1%, %, 5%%, x%, -3",
	      led_text_level("101%", &v, &percent) &&
	      led_text_level("-1%", &v, &percent) &&
	      led_text_level("%", &v, &percent) &&
	      led_text_level("5%%", &v, &percent) &&
	      led_text_level("x%", &v, &percent) &&
	      led_text_level("-3", &v, &percent));
	check("50% of 255 is 128 (the document's example)",
	      led_text_level_of(50, true, 255) == 128);
	check("levels: 100% of 4095, 1% of 10, 0% of 255, 7 is 7",
	      led_text_level_of(100, true, 4095) == 4095 &&
	      led_text_level_of(1, true, 10) == 0 &&
	      led_text_level_of(0, true, 255) == 0 &&
	      led_text_level_of(7, false, 255) == 7);
}

/* led_text_pattern(spec, max) is want (NULL: refused, why matching). */
static bool pattern_is(const char *spec, long max, const char *want,
		       const char *why_part)
{
	char out[LEDTEXT_PATTERN_SIZE];
	struct kit_err e = { 0 };
	int ret = led_text_pattern(spec, max, out, sizeof(out), &e);

	if (want)
		return !ret && !strcmp(out, want);
	return ret && e.status == EXIT_USAGE && strstr(e.msg, why_part);
}

static void test_pattern(void)
{
	char many[LEDTEXT_PATTERN_SIZE * 2] = "";
	static char spaced[LEDTEXT_PATTERN_SIZE * 3];
	int i;

	check("pattern: pairs as the kernel reads them",
	      pattern_is("0 1000 255 1000", 255, "0 1000 255 1000\n", NULL));
	check("pattern: N% of max_brightness, decimal levels",
	      pattern_is(" 10% 500\t010 0 ", 1023, "102 500 10 0\n", NULL));
	check("pattern: a 0x level is refused (the trigger reads %d)",
	      pattern_is("0x10 500 0 500", 255, NULL, "bad brightness '0x10'"));
	check("pattern: an odd count is refused",
	      pattern_is("0 1000 255", 255, NULL, "got 3 numbers"));
	check("pattern: 5 numbers are refused, not 2 pairs and a stray",
	      pattern_is("0 1000 255 1000 7", 255, NULL, "got 5 numbers"));
	check("pattern: one pair is refused (ledtrig-pattern wants 2)",
	      pattern_is("255 1000", 255, NULL, "2 or more pairs"));
	check("pattern: a brightness above max_brightness is refused",
	      pattern_is("0 10 256 10", 255, NULL, "256 in the pattern is above"));
	check("pattern: a bad duration is refused",
	      pattern_is("0 10 255 -5", 255, NULL, "bad duration '-5'"));
	check("pattern: a bad level is refused",
	      pattern_is("0 10 x 5", 255, NULL, "bad brightness 'x'"));
	memset(spaced, ' ', sizeof(spaced) - 16);
	strcpy(spaced + sizeof(spaced) - 16, "0 1 255 1");
	check("pattern: read whole, however much space it holds",
	      pattern_is(spaced, 255, "0 1 255 1\n", NULL));
	for (i = 0; i < 700; i++)
		strcat(many, "255 1000 ");
	check("pattern: more than a page is refused",
	      pattern_is(many, 255, NULL, "longer than the 4095 bytes"));
}

static void test_triggers(void)
{
	char line[] = "none kbd-capslock [timer] heartbeat pattern\n";
	char odd[] = "none [] x", *names[8];
	int current, n = led_text_triggers(line, names, 8, &current);

	check("triggers: the names, the bracketed one current",
	      n == 5 && current == 2 && !strcmp(names[2], "timer") &&
	      !strcmp(names[4], "pattern"));
	n = led_text_triggers(odd, names, 8, &current);
	check("triggers: \"[]\" is a name, no current one",
	      n == 3 && current == -1 && !strcmp(names[1], "[]"));
}

static void test_driven(void)
{
	check("document example truncated: green 21 blue 113 red 69",
	      led_driven_value(128, 43, 255, 0) == 21 &&
	      led_driven_value(128, 226, 255, 0) == 113 &&
	      led_driven_value(128, 138, 255, 0) == 69);
	check("document example rounded: green 22 blue 113 red 69",
	      led_driven_value(128, 43, 255, 1) == 22 &&
	      led_driven_value(128, 226, 255, 1) == 113 &&
	      led_driven_value(128, 138, 255, 1) == 69);
	check("commit 065d099f1be5 example: 16 * 15 / 255 is 0, rounded 1",
	      led_driven_value(16, 15, 255, 0) == 0 &&
	      led_driven_value(16, 15, 255, 1) == 1);
	check("full brightness drives the intensity",
	      led_driven_value(255, 200, 255, 0) == 200 &&
	      led_driven_value(255, 200, 255, 1) == 200);
	check("max_brightness 0 drives 0", led_driven_value(5, 5, 0, 1) == 0);
	check("unsigned int wrap as in the kernel",
	      led_driven_value(65536, 65536, 1, 0) == 0);
}

/* Whether the kernel uname would show as release and version rounds. */
static bool kernel_rounds(const char *release, const char *version)
{
	int v[3];

	return led_version_rounds(v, release_version(release, version, v));
}

static void test_kernel_rounds(void)
{
	check("5.10 truncates (no backport)",
	      !kernel_rounds("5.10.209", NULL) &&
	      !kernel_rounds("5.10.0-28-amd64",
			     "#1 SMP Debian 5.10.209-2 (2024-01-31)"));
	check("5.15: 5.15.131 truncates, 5.15.132 rounds",
	      !kernel_rounds("5.15.131", NULL) &&
	      kernel_rounds("5.15.132-generic", NULL));
	check("6.1: 6.1.52 truncates, 6.1.53 rounds",
	      !kernel_rounds("6.1.52", NULL) && kernel_rounds("6.1.53", NULL));
	check("Debian 6.1.0-18-amd64 is 6.1.76: rounds",
	      kernel_rounds("6.1.0-18-amd64",
			    "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"));
	check("Debian 6.1.0-9-amd64 is 6.1.27: truncates",
	      !kernel_rounds("6.1.0-9-amd64",
			     "#1 SMP PREEMPT_DYNAMIC Debian 6.1.27-1 (2023-05-08)"));
	check("Debian version of another X.Y is ignored",
	      !kernel_rounds("6.1.0-9-amd64", "#1 SMP Debian 6.5.3-1"));
	check("6.2, 6.3 truncate; 6.4.15 truncates, 6.4.16 rounds",
	      !kernel_rounds("6.2.16", NULL) && !kernel_rounds("6.3.13", NULL) &&
	      !kernel_rounds("6.4.15", NULL) && kernel_rounds("6.4.16", NULL));
	check("6.5.2 truncates, 6.5.3 rounds",
	      !kernel_rounds("6.5.2", NULL) && kernel_rounds("6.5.3", NULL));
	check("6.6, 6.12, 6.18, 7.0 round",
	      kernel_rounds("6.6", NULL) && kernel_rounds("6.12.12+bpo-amd64",
							  NULL) &&
	      kernel_rounds("6.18.44-fc-v1147", NULL) &&
	      kernel_rounds("7.0.0", NULL));
	check("5.9 truncates", !kernel_rounds("5.9.16", NULL));
	check("unparsable release: assume rounding",
	      kernel_rounds("", NULL) && kernel_rounds("linux", NULL));
}

/* The LED kit.led= chooses, given conf's led= a:file. */
static bool stage_led_is(const char *cmdline, const char *want)
{
	char line[256], buf[64];
	struct led_stage_conf conf;
	const char *led;

	led_stage_defaults(&conf);
	strcpy(conf.led, "a:file");
	snprintf(line, sizeof(line), "%s", cmdline);
	led = led_stage_led(&conf, line, buf, sizeof(buf));
	if (!want || !led)
		return !want && !led;
	return !strcmp(led, want);
}

static void test_stage_led(void)
{
	check("kit.led=: the file's led= without it",
	      stage_led_is("quiet root=/dev/vda", "a:file"));
	check("kit.led=: the last one wins",
	      stage_led_is("kit.led=a:one kit.led=b:two", "b:two"));
	check("kit.led=off: none", stage_led_is("kit.led=off", NULL));
	check("kit.led=\"a:one\": quotes off, as the kernel reads it",
	      stage_led_is("kit.led=\"a:one\"", "a:one"));
	check("kit.led= inside another word's quotes is not one",
	      stage_led_is("foo=\"bar kit.led=off\"", "a:file"));
	check("kit.led= ends at \\r, \\v and 0xa0",
	      stage_led_is("kit.led=a:one\rquiet", "a:one") &&
	      stage_led_is("kit.led=b\vx", "b") &&
	      stage_led_is("kit.led=c\xa0x", "c"));
	check("kit.led= after -- is init's",
	      stage_led_is("quiet -- kit.led=off", "a:file"));
	check("kit.led alone, or xkit.led=, is none",
	      stage_led_is("kit.led xkit.led=b", "a:file"));
}

/* text parsed over the defaults: 0, or the line of the error. */
static int stage_parse_len(struct led_stage_conf *conf, const char *text,
			   size_t len)
{
	char copy[512];
	struct kit_err e;
	int line;

	memcpy(copy, text, len);
	copy[len] = '\0';
	led_stage_defaults(conf);
	return led_stage_parse(conf, copy, len, &line, &e) ? line : 0;
}

static int stage_parse(struct led_stage_conf *conf, const char *text)
{
	return stage_parse_len(conf, text, strlen(text));
}

static void test_stage_parse(void)
{
	static const char nul[] = "led=a\nwaiting=#ffbf00\0 blink 1 1\n";
	struct led_stage_conf conf;

	check("led.conf: keys, blanks, comment lines, line numbers",
	      !stage_parse(&conf, "# c\n led = a:one \n\nmounted=#010203 "
			   "heartbeat\n") &&
	      !strcmp(conf.led, "a:one") && conf.led_line == 2 &&
	      !strcmp(conf.look[LEDSTAGE_MOUNTED], "#010203 heartbeat") &&
	      conf.look_line[LEDSTAGE_MOUNTED] == 4 &&
	      conf.look_line[LEDSTAGE_WAITING] == 0);
	check("led.conf: # after a blank starts a comment",
	      !stage_parse(&conf, "led=a:one # my led\nwaiting=#ffbf00 "
			   "steady\t# amber") &&
	      !strcmp(conf.led, "a:one") &&
	      !strcmp(conf.look[LEDSTAGE_WAITING], "#ffbf00 steady"));
	check("led.conf: a look's color is no comment",
	      !stage_parse(&conf, "failed= #ff0000 steady") &&
	      !strcmp(conf.look[LEDSTAGE_FAILED], "#ff0000 steady"));
	check("led.conf: CRLF lines",
	      !stage_parse(&conf, "led=a\r\nwaiting=#ffbf00 steady\r\n") &&
	      !strcmp(conf.led, "a") &&
	      !strcmp(conf.look[LEDSTAGE_WAITING], "#ffbf00 steady"));
	check("led.conf: a NUL byte is refused, with its line",
	      stage_parse_len(&conf, nul, sizeof(nul) - 1) == 2);
	check("led.conf: a NUL on the last line",
	      stage_parse_len(&conf, "led=a\nled=b\0", 12) == 2);
	check("led.conf: an unknown key, its line",
	      stage_parse(&conf, "led=a\n\nbogus=1\n") == 3);
}

int main(void)
{
	test_colors();
	test_intensities();
	test_values();
	test_rgb();
	test_brightness();
	test_pattern();
	test_triggers();
	test_driven();
	test_kernel_rounds();
	test_stage_led();
	test_stage_parse();
	return unit_status();
}
