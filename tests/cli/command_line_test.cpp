// The declared command line (app/cli/command.h): parsing through CLI11, one-line errors, and
// the help written from the declaration.

#include <gtest/gtest.h>

#include <sstream>

#include "app/cli/command.h"

namespace fusescope::app {
namespace {

Command TestCommand() {
  Command command;
  command.name = "probe";
  command.summary = "a command declared for these tests";
  command.positionals = {{"RUN.fsdb", "the recording"},
                         Positional{"OTHER.fsdb", "a second recording"}.Optional()};
  command.flags = {
      Switch("--json", "print JSON"),
      Integer("--pass", "N", "the snapshot after pass N; -1: the input"),
      Integer("--reps", "N", "timed runs").Default("10").AtLeast(1),
      Number("--rtol", "X", "relative tolerance").Default("1e-05").AtLeast(0),
      Text("--set", "KEY=VALUE", "set a pipeline option").Repeats(),
      Text("-o", "OUT", "where to write").Required(),
      Switch("--list", "list instead").Mode(),
      Switch("--secret", "not shown").Hidden(),
  };
  command.run = [](const ParsedArgs&) { return 0; };
  return command;
}

StatusOr<ParsedArgs> Parse(std::vector<std::string> args) {
  return ParseCommandLine(TestCommand(), args);
}

TEST(CommandLineTest, ValuesSwitchesAndPositionals) {
  auto args = Parse({"a.fsdb", "--pass", "3", "--json", "-o", "out", "b.fsdb"});
  ASSERT_TRUE(args.ok()) << args.message();
  EXPECT_EQ(args->positional(), (std::vector<std::string>{"a.fsdb", "b.fsdb"}));
  EXPECT_TRUE(args->Has("--json"));
  EXPECT_FALSE(args->Has("--list"));
  EXPECT_EQ(args->IntValue("--pass"), 3);
  EXPECT_EQ(args->Value("-o"), "out");
  EXPECT_EQ(args->command(), "probe");
}

TEST(CommandLineTest, EqualsFormAndJoinedShortValue) {
  auto args = Parse({"--pass=-1", "a.fsdb", "-oout.html", "--set=fusion.max_operands=4"});
  ASSERT_TRUE(args.ok()) << args.message();
  EXPECT_EQ(args->IntValue("--pass"), -1);
  EXPECT_EQ(args->Value("-o"), "out.html");
  EXPECT_EQ(args->Values("--set"), (std::vector<std::string>{"fusion.max_operands=4"}));
}

TEST(CommandLineTest, NegativeNumberIsAValue) {
  auto args = Parse({"a.fsdb", "-o", "x", "--pass", "-1"});
  ASSERT_TRUE(args.ok()) << args.message();
  EXPECT_EQ(args->IntValue("--pass"), -1);
}

TEST(CommandLineTest, DefaultsComeFromTheDeclaration) {
  auto args = Parse({"a.fsdb", "-o", "x"});
  ASSERT_TRUE(args.ok()) << args.message();
  EXPECT_FALSE(args->Has("--reps"));
  EXPECT_EQ(args->IntValue("--reps"), 10);
  EXPECT_EQ(args->NumberValue("--rtol"), 1e-5);
  EXPECT_EQ(args->IntValue("--pass"), std::nullopt);
  EXPECT_EQ(args->Value("--pass"), std::nullopt);
}

TEST(CommandLineTest, RepeatedFlagKeepsEveryValueInOrder) {
  auto args = Parse({"a.fsdb", "-o", "x", "--set", "a=1", "--set=b=2", "--set", "a=3"});
  ASSERT_TRUE(args.ok()) << args.message();
  EXPECT_EQ(args->Values("--set"), (std::vector<std::string>{"a=1", "b=2", "a=3"}));
  EXPECT_EQ(args->Value("--set"), "a=1");
  // A switch said twice is still on.
  auto twice = Parse({"a.fsdb", "-o", "x", "--json", "--json"});
  ASSERT_TRUE(twice.ok()) << twice.message();
  EXPECT_TRUE(twice->Has("--json"));
}

TEST(CommandLineTest, SingleValuedFlagGivenTwiceIsAnError) {
  auto args = Parse({"a.fsdb", "-o", "x", "--pass", "1", "--pass", "2"});
  ASSERT_FALSE(args.ok());
  EXPECT_EQ(args.message(), "--pass is given 2 times; it takes one value");
}

TEST(CommandLineTest, UnknownFlagSuggestsTheNearestDeclaredOne) {
  auto args = Parse({"a.fsdb", "-o", "x", "--pas", "3"});
  ASSERT_FALSE(args.ok());
  EXPECT_EQ(args.message(), "unknown flag --pas (did you mean --pass?)");
  auto far = Parse({"a.fsdb", "-o", "x", "--frobnicate=2"});
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.message(), "unknown flag --frobnicate");
  // Hidden flags are accepted but never suggested.
  auto hidden = Parse({"a.fsdb", "-o", "x", "--secre"});
  ASSERT_FALSE(hidden.ok());
  EXPECT_EQ(hidden.message(), "unknown flag --secre");
  EXPECT_TRUE(Parse({"a.fsdb", "-o", "x", "--secret"}).ok());
}

TEST(CommandLineTest, MissingValue) {
  auto at_end = Parse({"a.fsdb", "-o", "x", "--pass"});
  ASSERT_FALSE(at_end.ok());
  EXPECT_EQ(at_end.message(), "--pass needs a value (N)");
  auto short_at_end = Parse({"a.fsdb", "-o"});
  ASSERT_FALSE(short_at_end.ok());
  EXPECT_EQ(short_at_end.message(), "-o needs a value (OUT)");
  // As before CLI11, a flag that needs a value takes the next word, whatever it looks like.
  auto before_flag = Parse({"a.fsdb", "-o", "x", "--pass", "--json"});
  ASSERT_FALSE(before_flag.ok());
  EXPECT_EQ(before_flag.message(), "--pass needs an integer, got '--json'");
}

TEST(CommandLineTest, BadIntegerAndNumber) {
  auto word = Parse({"a.fsdb", "-o", "x", "--pass", "three"});
  ASSERT_FALSE(word.ok());
  EXPECT_EQ(word.message(), "--pass needs an integer, got 'three'");
  auto fraction = Parse({"a.fsdb", "-o", "x", "--pass=1.5"});
  ASSERT_FALSE(fraction.ok());
  EXPECT_EQ(fraction.message(), "--pass needs an integer, got '1.5'");
  auto small = Parse({"a.fsdb", "-o", "x", "--reps", "0"});
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.message(), "--reps needs an integer of at least 1, got '0'");
  auto number = Parse({"a.fsdb", "-o", "x", "--rtol", "tight"});
  ASSERT_FALSE(number.ok());
  EXPECT_EQ(number.message(), "--rtol needs a number of at least 0, got 'tight'");
  auto fine = Parse({"a.fsdb", "-o", "x", "--rtol", "2.5e-3"});
  ASSERT_TRUE(fine.ok()) << fine.message();
  EXPECT_EQ(fine->NumberValue("--rtol"), 2.5e-3);
}

TEST(CommandLineTest, SwitchTakesNoValue) {
  auto args = Parse({"a.fsdb", "-o", "x", "--json=yes"});
  ASSERT_FALSE(args.ok());
  EXPECT_EQ(args.message(), "--json takes no value, got '--json=yes'");
}

TEST(CommandLineTest, PositionalsAndRequiredFlags) {
  auto none = Parse({"-o", "x"});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.message(),
            "missing RUN.fsdb; usage: fusescope probe RUN.fsdb [OTHER.fsdb] -o OUT [FLAGS]");
  auto extra = Parse({"a", "b", "c", "-o", "x"});
  ASSERT_FALSE(extra.ok());
  EXPECT_EQ(extra.message().substr(0, 26), "unexpected argument 'c'; u");
  auto no_output = Parse({"a"});
  ASSERT_FALSE(no_output.ok());
  EXPECT_EQ(no_output.message().substr(0, 18), "missing -o OUT; us");
  // A mode flag is another use of the command: it checks what that use needs itself.
  auto mode = Parse({"--list"});
  ASSERT_TRUE(mode.ok()) << mode.message();
  EXPECT_TRUE(mode->Has("--list"));
}

TEST(CommandLineTest, DoubleDashEndsTheFlags) {
  auto args = Parse({"-o", "x", "--", "--json"});
  ASSERT_TRUE(args.ok()) << args.message();
  EXPECT_EQ(args->positional(), (std::vector<std::string>{"--json"}));
  EXPECT_FALSE(args->Has("--json"));
}

TEST(CommandLineTest, HelpIsAskedFor) {
  for (const char* flag : {"--help", "-h"}) {
    auto args = Parse({flag});
    ASSERT_TRUE(args.ok()) << args.message();
    EXPECT_TRUE(args->help());
  }
}

TEST(CommandLineTest, FlagsOnlyParseLeavesPositionalsToTheCaller) {
  auto args = ParseFlags({Text("--pipeline", "NAME", "").Default("cpu")}, {"word", "x"});
  ASSERT_TRUE(args.ok()) << args.message();
  EXPECT_EQ(args->positional().size(), 2u);
  EXPECT_EQ(args->Value("--pipeline"), "cpu");
}

TEST(CommandLineTest, HelpListsEveryVisibleFlagWithItsValueNameAndDefault) {
  const Command command = TestCommand();
  std::ostringstream out;
  WriteCommandHelp(out, command);
  const std::string help = out.str();
  EXPECT_EQ(help.rfind("usage: fusescope probe RUN.fsdb [OTHER.fsdb] -o OUT [FLAGS]\n", 0), 0u)
      << help;
  for (const Flag& flag : command.flags) {
    const std::string label =
        flag.kind == FlagKind::kSwitch ? flag.name : flag.name + " " + flag.metavar;
    if (flag.hidden) {
      EXPECT_EQ(help.find(flag.name), std::string::npos) << help;
    } else {
      EXPECT_NE(help.find("  " + label + " "), std::string::npos) << label << "\n" << help;
      EXPECT_NE(help.find(flag.help), std::string::npos) << flag.help << "\n" << help;
    }
  }
  for (const Positional& positional : command.positionals) {
    EXPECT_NE(help.find("  " + positional.name + " "), std::string::npos) << help;
  }
  EXPECT_NE(help.find("timed runs (default: 10)"), std::string::npos) << help;
  EXPECT_NE(help.find("set a pipeline option (repeatable)"), std::string::npos) << help;
  EXPECT_NE(help.find("where to write (required)"), std::string::npos) << help;
}

TEST(CommandLineTest, LongHelpWrapsUnderItsColumn) {
  Command command = TestCommand();
  command.flags = {Text("--a-very-long-flag-name", "SOME_VALUE", std::string(150, 'x') + " y z")};
  std::ostringstream out;
  WriteCommandHelp(out, command);
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.find("xxxx") != std::string::npos) {
      EXPECT_EQ(line.rfind(std::string(28, ' '), 0), 0u);
    }
  }
  EXPECT_NE(out.str().find("\n  --a-very-long-flag-name SOME_VALUE\n"), std::string::npos);
}

TEST(CommandLineTest, ManPageHasEveryFlagEscaped) {
  std::ostringstream out;
  WriteManCommands(out, {TestCommand()});
  const std::string man = out.str();
  EXPECT_NE(man.find(".B probe RUN.fsdb [OTHER.fsdb] \\-o OUT [FLAGS]\n"), std::string::npos)
      << man;
  EXPECT_NE(man.find("\\fB\\-\\-reps\\fR \\fIN\\fR\ntimed runs (default: 10)\n"), std::string::npos)
      << man;
  EXPECT_NE(man.find("\\fB\\-\\-json\\fR\nprint JSON\n"), std::string::npos) << man;
  EXPECT_EQ(man.find("secret"), std::string::npos) << man;
}

TEST(CommandLineDeathTest, ReadingAnUndeclaredFlagIsAProgramError) {
  auto args = Parse({"a.fsdb", "-o", "x"});
  ASSERT_TRUE(args.ok());
  EXPECT_DEATH((void)args->Has("--bogus"), "flag --bogus is read but probe does not declare it");
  EXPECT_DEATH((void)args->IntValue("--rtol"), "--rtol is read as an integer");
}

}  // namespace
}  // namespace fusescope::app
