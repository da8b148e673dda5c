/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Unit rules: the parser's errors, the matcher (globs as systemctl's,
 * templates, the last match wins, no unit for a session rule and no
 * session for a unit rule), and the generator's drop-ins against the
 * fixture unit tree tests/data/units (etc/ above lib/, as /etc above
 * /usr/lib), under a directory of the run's own that masks a unit.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decide.h"
#include "generate.h"
#include "harness.h"
#include "log_buffer.h"
#include "policy.h"
#include "safe_read.h"
#include "unit.h"

static struct pml_log_buffer logged;
static const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_WARNING };

/* POLICY parsed from TEXT; the return of pml_policy_add_text. */
static int parse(const char *text, struct pml_policy *policy)
{
	logged.text[0] = '\0';
	pml_policy_init(policy);
	return pml_policy_add_text(policy, "t.conf", text, strlen(text), &log_to_buffer);
}

/* --- the parser's errors ------------------------------------------------ */

static const struct {
	const char *text;
	const char *message;
} bad[] = {
	{ "rules = ( { unit = \"a.service\"; user = \"root\"; limit = \"1 MiB\"; } );",
	  "t.conf:1: unit cannot be combined with user, group, uid or service" },
	{ "rules = (\n { unit = \"a.service\";\n group = \"adm\"; limit = \"1 MiB\"; } );",
	  "t.conf:2: unit cannot be combined with user, group, uid or service" },
	{ "rules = ( { uid = \"1000-\"; unit = \"a.service\"; limit = \"1 MiB\"; } );",
	  "t.conf:1: unit cannot be combined" },
	{ "rules = ( { service = \"sshd\"; unit = \"a.service\"; limit = \"1 MiB\"; } );",
	  "t.conf:1: unit cannot be combined" },
	{ "rules = ( { unit = []; limit = \"1 MiB\"; } );", "t.conf:1: unit: empty list" },
	{ "rules = ( { unit = (); limit = \"1 MiB\"; } );", "t.conf:1: unit: empty list" },
	{ "rules = ( { unit = \"\"; limit = \"1 MiB\"; } );", "t.conf:1: unit: empty name" },
	{ "rules = ( { unit = [\"a.service\",\n \"b c.service\"]; limit = \"1 MiB\"; } );",
	  "t.conf:2: unit: \"b c.service\": not a unit name or glob" },
	{ "rules = ( { unit = \"../x.service\"; limit = \"1 MiB\"; } );",
	  "t.conf:1: unit: \"../x.service\": not a unit name or glob" },
	{ "rules = ( { unit = 5; limit = \"1 MiB\"; } );",
	  "t.conf:1: unit: expected a quoted name or a list of them, not a number" },
	{ "unit = \"a.service\";", "t.conf:1: \"unit\" belongs inside a rule" },
	{ "rules = ( { unit = \"a.service\"; } );", "t.conf:1: rule sets nothing" },
	{ "rules = ( { units = \"a.service\"; limit = \"1 MiB\"; } );",
	  "did you mean \"unit\"?" },
};

START_TEST(bad_unit_rule_is_an_error)
{
	struct pml_policy policy;

	ck_assert_int_eq(parse(bad[_i].text, &policy), -EINVAL);
	ck_assert_msg(strstr(logged.text, bad[_i].message) != NULL,
		      "for %s: wanted \"%s\" in:\n%s", bad[_i].text, bad[_i].message, logged.text);
	pml_policy_free(&policy);
}
END_TEST

/* --- the matcher ------------------------------------------------------- */

#define RULES "limit = \"8 MiB\";\nrules = (\n"

/* Which rule's line decides UNIT (0: none). */
static const struct {
	const char *text;
	const char *unit;
	unsigned line;
} matches[] = {
	/* A template's own name is matched as a name with an empty instance. */
	{ RULES "{ unit = \"postgresql@*.service\"; limit = \"1%\"; } );", "postgresql@.service", 3 },
	{ RULES "{ unit = \"postgresql@*.service\"; limit = \"1%\"; } );", "postgresql@15-main.service", 3 },
	{ RULES "{ unit = \"postgresql@*.service\"; limit = \"1%\"; } );", "postgresql.service", 0 },
	/* fnmatch on the whole name: no prefix match, no suffix match. */
	{ RULES "{ unit = \"containerd\"; limit = \"1%\"; } );", "containerd.service", 0 },
	{ RULES "{ unit = \"containerd.service\"; limit = \"1%\"; } );", "xcontainerd.service", 0 },
	{ RULES "{ unit = \"*.service\"; limit = \"1%\"; } );", "a.socket", 0 },
	{ RULES "{ unit = \"slurm?.service\"; limit = \"1%\"; } );", "slurmd.service", 3 },
	{ RULES "{ unit = \"[ab].service\"; limit = \"1%\"; } );", "b.service", 3 },
	/* A backslash is a character of the name, as in systemd's escapes. */
	{ RULES "{ unit = \"dev-disk\\\\x2dx.swap\"; limit = \"1%\"; } );", "dev-disk\\x2dx.swap", 3 },
	/* A list matches any element. */
	{ RULES "{ unit = [\"a.service\", \"b.service\"]; limit = \"1%\"; } );", "b.service", 3 },
	/* The last match wins. */
	{ RULES "{ unit = \"*.service\"; limit = \"1%\"; },\n{ unit = \"a.service\"; limit = \"2%\"; } );",
	  "a.service", 4 },
	{ RULES "{ unit = \"a.service\"; limit = \"1%\"; },\n{ unit = \"*.service\"; limit = \"2%\"; } );",
	  "a.service", 4 },
	{ RULES "{ unit = \"a.service\"; limit = \"1%\"; },\n{ unit = \"b.service\"; limit = \"2%\"; } );",
	  "a.service", 3 },
	/* A session rule, even one without a match key, names no unit. */
	{ RULES "{ limit = \"1%\"; },\n{ user = \"root\"; limit = \"2%\"; } );", "a.service", 0 },
	{ RULES "{ unit = \"a.service\"; limit = \"1%\"; },\n{ limit = \"2%\"; } );", "a.service", 3 },
};

START_TEST(unit_matcher)
{
	struct pml_policy policy;
	const struct pml_rule *rule;

	ck_assert_msg(parse(matches[_i].text, &policy) == 0, "%s", logged.text);
	rule = pml_match_unit(&policy, matches[_i].unit);
	ck_assert_msg(matches[_i].line == (rule != NULL ? rule->at.line : 0),
		      "%s for %s: wanted line %u, got %u", matches[_i].text, matches[_i].unit,
		      matches[_i].line, rule != NULL ? rule->at.line : 0);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(unit_rule_matches_no_session)
{
	struct pml_policy policy;
	struct pml_identity root = { .user = "root", .service = "sshd" };

	ck_assert_int_eq(parse(RULES "{ limit = \"1%\"; },\n{ unit = \"*\"; limit = \"2%\"; } );",
			       &policy),
			 0);
	ck_assert_ptr_eq(pml_match(&policy, &root), &policy.rules[0]);
	ck_assert(!pml_rule_matches(&policy.rules[1], &root));
	/* A glob that matches anything still matches no session's name. */
	root.service = "*";
	ck_assert_ptr_eq(pml_match(&policy, &root), &policy.rules[0]);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(unit_of_no_process_type_gets_nothing)
{
	struct pml_policy policy;
	struct pml_unit_files files = { .path = "" };
	struct pml_machine machine = { .ram = 1ull << 30, .page_size = 4096 };
	struct pml_unit_decision d;

	ck_assert_int_eq(parse("rules = ( { unit = \"*\"; limit = \"1 MiB\"; } );", &policy), 0);
	pml_unit_decide(&policy, "multi-user.target", &files, &machine, &d);
	ck_assert_int_eq(d.action, PML_UNIT_NO_PROCESS);
	pml_unit_decide(&policy, "a.socket", &files, &machine, &d);
	ck_assert_int_eq(d.action, PML_UNIT_WRITE);
	pml_policy_free(&policy);
}
END_TEST

/* --- the generator ----------------------------------------------------- */

static char tmp[] = "/tmp/pml-units-XXXXXX";
static char out_dir[4200], kmsg[4200], unit_path[12600];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* Runs the generator over the fixture tree with POLICY; fills *RESULT. */
static void generate(const char *policy, struct gen_result *result)
{
	char conf[4200], path[4200];
	FILE *f;
	struct gen_request request = {
		.source = { .path = conf, .given = true, .owner = PML_ANY_OWNER },
		.normal_dir = out_dir,
		.unit_path = unit_path,
		.kmsg = kmsg,
	};

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(conf, sizeof(conf), "%s/memlock.conf", tmp);
	snprintf(out_dir, sizeof(out_dir), "%s/generator", tmp);
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", tmp);
	/* A masked unit is a link to /dev/null, which the release tarball
	 * cannot carry (make dist follows links): made here, first in the
	 * search path, as /etc/systemd/system is. */
	snprintf(path, sizeof(path), "%s/masks", tmp);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/masks/masked.service", tmp);
	ck_assert_int_eq(symlink("/dev/null", path), 0);
	snprintf(unit_path, sizeof(unit_path), "%s/masks:%s/units/etc:%s/units/lib", tmp,
		 pml_test_env("PML_TESTDATA"), pml_test_env("PML_TESTDATA"));
	ck_assert_int_eq(mkdir(out_dir, 0755), 0);
	f = fopen(conf, "we");
	ck_assert_ptr_nonnull(f);
	fputs(policy, f);
	fclose(f);
	chmod(conf, 0644);
	f = fopen(kmsg, "we");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(gen_run(&request, result), 0);
}

/* The text of FILE in the temporary directory, or "" when it is absent. */
static const char *read_back(const char *file)
{
	static char text[8192];
	char path[8400];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, file);
	text[0] = '\0';
	f = fopen(path, "re");
	if (f == NULL)
		return text;
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void clean_up(void)
{
	nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	strcpy(tmp, "/tmp/pml-units-XXXXXX");
}

/* The line the drop-in of UNIT holds, NULL for no drop-in. */
static const struct {
	const char *what;
	const char *policy;
	const char *unit;
	const char *line;
} drops[] = {
	{ "set writes the value",
	  "rules = ( { unit = \"other.service\"; limit = \"1 GiB\"; mode = \"set\"; } );",
	  "other.service", "LimitMEMLOCK=1073741824:1073741824" },
	{ "raise leaves a unit whose file gives more",
	  "rules = ( { unit = \"containerd.service\"; limit = \"1 GiB\"; } );",
	  "containerd.service", NULL },
	{ "set lowers a unit whose file gives more",
	  "rules = ( { unit = \"containerd.service\"; limit = \"1 GiB\"; mode = \"set\"; } );",
	  "containerd.service", "LimitMEMLOCK=1073741824:1073741824" },
	{ "raise takes each side's larger (a continued line)",
	  "rules = ( { unit = \"slurmd.service\"; limit = \"2 GiB\"; } );",
	  "slurmd.service", "LimitMEMLOCK=2147483648:infinity" },
	{ "raise below both sides writes nothing",
	  "rules = ( { unit = \"slurmd.service\"; limit = \"512 MiB\"; } );",
	  "slurmd.service", NULL },
	{ "a template's drop-in, a share of its MemoryMax=",
	  "rules = ( { unit = \"postgresql@*.service\"; limit = \"50%\"; } );",
	  "postgresql@.service", "LimitMEMLOCK=134217728:134217728" },
	{ "share_of ram is of RAM, not of MemoryMax=",
	  "rules = ( { unit = \"postgresql@*.service\"; limit = \"50%\"; share_of = \"ram\"; "
	  "ceiling = \"300 MiB\"; } );",
	  "postgresql@.service", "LimitMEMLOCK=314572800:314572800" },
	{ "an instance named outright reads its template",
	  "rules = ( { unit = \"postgresql@15-main.service\"; limit = \"25%\"; } );",
	  "postgresql@15-main.service", "LimitMEMLOCK=67108864:67108864" },
	{ "a raise against the template's vendor drop-in",
	  "rules = ( { unit = \"postgresql@*.service\"; limit = \"1 MiB\"; hard = \"64 MiB\"; } );",
	  "postgresql@.service", "LimitMEMLOCK=16777216:67108864" },
	{ "a unit without a file yet",
	  "rules = ( { unit = \"vault.service\"; limit = \"1 GiB\"; } );",
	  "vault.service", "LimitMEMLOCK=1073741824:1073741824" },
	{ "an admin's drop-in of the same name masks it",
	  "rules = ( { unit = \"masked-by-admin.service\"; limit = \"1 GiB\"; } );",
	  "masked-by-admin.service", NULL },
	{ "a masked unit gets none",
	  "rules = ( { unit = \"masked.service\"; limit = \"1 GiB\"; } );", "masked.service", NULL },
	{ "a type that starts no process gets none",
	  "rules = ( { unit = \"*\"; limit = \"1 GiB\"; } );", "multi-user.target", NULL },
	{ "a value the reader cannot parse is skipped",
	  "rules = ( { unit = \"garbled.service\"; limit = \"1 GiB\"; } );",
	  "garbled.service", "LimitMEMLOCK=1073741824:1073741824" },
	{ "a unit no rule names is untouched",
	  "rules = ( { unit = \"slurmd.service\"; limit = \"4 GiB\"; } );", "other.service", NULL },
	{ "the last matching rule wins",
	  "rules = ( { unit = \"*.service\"; limit = \"1 MiB\"; mode = \"set\"; },\n"
	  "{ unit = \"other.service\"; limit = \"2 MiB\"; mode = \"set\"; } );",
	  "other.service", "LimitMEMLOCK=2097152:2097152" },
	{ "an earlier rule loses to a later glob",
	  "rules = ( { unit = \"other.service\"; limit = \"2 MiB\"; mode = \"set\"; },\n"
	  "{ unit = \"*.service\"; limit = \"1 MiB\"; mode = \"set\"; } );",
	  "other.service", "LimitMEMLOCK=1048576:1048576" },
	{ "top-level keys fill in what a unit rule leaves out",
	  "hard = \"infinity\"; mode = \"set\";\nrules = ( { unit = \"other.service\"; limit = \"3 MiB\"; } );",
	  "other.service", "LimitMEMLOCK=3145728:3145728" },
	{ "session rules give no unit anything",
	  "limit = \"1 GiB\"; mode = \"set\";\nrules = ( { limit = \"2 GiB\"; }, { user = \"root\"; limit = \"3 GiB\"; } );",
	  "other.service", NULL },
};

START_TEST(generator_drop_in)
{
	struct gen_result result;
	char file[600];
	const char *text;

	generate(drops[_i].policy, &result);
	ck_assert(result.policy_ok);
	snprintf(file, sizeof(file), "generator/%s.d/" PML_UNIT_DROPIN, drops[_i].unit);
	text = read_back(file);
	if (drops[_i].line == NULL) {
		ck_assert_msg(text[0] == '\0', "%s: wanted no drop-in, got:\n%s", drops[_i].what, text);
	} else {
		ck_assert_msg(strstr(text, drops[_i].line) != NULL, "%s: wanted %s in:\n%s",
			      drops[_i].what, drops[_i].line, text);
		ck_assert_msg(strstr(text, "memlock.conf:") != NULL && strstr(text, "\n[") != NULL,
			      "%s: no origin or section in:\n%s", drops[_i].what, text);
	}
	clean_up();
}
END_TEST

START_TEST(generator_names_the_rule_and_the_section)
{
	struct gen_result result;

	generate("limit = \"1 MiB\";\nrules = (\n { unit = \"other.service\"; limit = \"2 GiB\"; } );",
		 &result);
	ck_assert_ptr_nonnull(strstr(read_back("generator/other.service.d/" PML_UNIT_DROPIN),
				     "/memlock.conf:3\n"));
	ck_assert_ptr_nonnull(strstr(read_back("generator/other.service.d/" PML_UNIT_DROPIN),
				     "\n[Service]\nLimitMEMLOCK=2147483648:2147483648\n"));
	ck_assert_uint_eq(result.written, 1);
	clean_up();
}
END_TEST

START_TEST(generator_warns_of_a_garbled_limit)
{
	struct gen_result result;

	generate("rules = ( { unit = \"garbled.service\"; limit = \"1 GiB\"; } );", &result);
	ck_assert_msg(strstr(read_back("kmsg"),
			     "pam-memlock-generator: ") != NULL &&
			      strstr(read_back("kmsg"), "/garbled.service:2: LimitMEMLOCK=\"lots\"") !=
				      NULL,
		      "kmsg: %s", read_back("kmsg"));
	clean_up();
}
END_TEST

/* Invalid policies: no drop-in for any unit, one line in the kernel log,
 * and success (a generator's failure would not stop the boot, but says
 * nothing more than the line). */
static const char *const invalid[] = {
	"rules = ( { unit = \"*.service\"; limit = \"1 GiB\"; }, { unit = \"x.service\"; user = \"a\"; limit = \"1 GiB\"; } );",
	"rules = ( { unit = \"*.service\"; limit = \"1 GiB\"; } );\nbogus = 1;\nlimit = \"lots\";",
	"rules = ( { unit = \"*.service\"; limit = \"1 GiB\"; } ",
};

START_TEST(generator_writes_nothing_for_an_invalid_policy)
{
	struct gen_result result;
	const char *log;
	char *p;
	unsigned lines = 0;

	generate(invalid[_i], &result);
	ck_assert(!result.policy_ok);
	ck_assert_uint_eq(result.written, 0);
	ck_assert_int_eq(rmdir(out_dir), 0); /* empty */
	log = read_back("kmsg");
	for (p = strchr(log, '\n'); p != NULL; p = strchr(p + 1, '\n'))
		lines++;
	ck_assert_msg(lines == 1 && strstr(log, "<27>pam-memlock-generator: the policy is not valid") == log,
		      "kmsg: %s", log);
	clean_up();
}
END_TEST

START_TEST(unit_search_path_from_the_environment)
{
	struct pml_unit_path path;

	ck_assert_int_eq(pml_unit_path_init(&path, NULL), 0);
	ck_assert_uint_eq(path.n, 5);
	ck_assert_str_eq(path.dirs[0], "/etc/systemd/system");
	pml_unit_path_free(&path);
	ck_assert_int_eq(pml_unit_path_init(&path, "/a:rel:/b"), 0);
	ck_assert_uint_eq(path.n, 2);
	ck_assert_str_eq(path.dirs[1], "/b");
	pml_unit_path_free(&path);
	/* A trailing ":" appends the default. */
	ck_assert_int_eq(pml_unit_path_init(&path, "/a:"), 0);
	ck_assert_uint_eq(path.n, 6);
	ck_assert_str_eq(path.dirs[0], "/a");
	ck_assert_str_eq(path.dirs[5], "/lib/systemd/system");
	pml_unit_path_free(&path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("units");

	tcase_add_loop_test(tc, bad_unit_rule_is_an_error, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_loop_test(tc, unit_matcher, 0, sizeof(matches) / sizeof(matches[0]));
	tcase_add_test(tc, unit_rule_matches_no_session);
	tcase_add_test(tc, unit_of_no_process_type_gets_nothing);
	tcase_add_loop_test(tc, generator_drop_in, 0, sizeof(drops) / sizeof(drops[0]));
	tcase_add_test(tc, generator_names_the_rule_and_the_section);
	tcase_add_test(tc, generator_warns_of_a_garbled_limit);
	tcase_add_loop_test(tc, generator_writes_nothing_for_an_invalid_policy, 0,
			    sizeof(invalid) / sizeof(invalid[0]));
	tcase_add_test(tc, unit_search_path_from_the_environment);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
