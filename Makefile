# relctl: build, install and regenerate the files derived from the command model.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1
BASHDIR = $(PREFIX)/share/bash-completion/completions
ZSHDIR = $(PREFIX)/share/zsh/site-functions
FISHDIR = $(PREFIX)/share/fish/vendor_completions.d
DATADIR = $(PREFIX)/share/relctl
RELEASE = .build/release/relctl

.PHONY: all release install uninstall generate demo test check fuzz bench clean

all: release

# A fully static executable (see Package.swift): the Swift standard library,
# SQLite and libcrypto are linked in. The linker notes that code paths of
# libsqlite3.a and libcrypto.a relctl never calls (extension loading, DNS)
# would need the build machine's glibc at run time.
release:
	swift build -c release --product relctl

install: release
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHDIR) $(DESTDIR)$(ZSHDIR) $(DESTDIR)$(FISHDIR) $(DESTDIR)$(DATADIR)
	install -m 755 $(RELEASE) $(DESTDIR)$(BINDIR)/relctl
	install -m 644 man/relctl.1 $(DESTDIR)$(MANDIR)/relctl.1
	install -m 644 completions/relctl.bash $(DESTDIR)$(BASHDIR)/relctl
	install -m 644 completions/_relctl $(DESTDIR)$(ZSHDIR)/_relctl
	install -m 644 completions/relctl.fish $(DESTDIR)$(FISHDIR)/relctl.fish
	install -m 644 schema/config.schema.json $(DESTDIR)$(DATADIR)/config.schema.json

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/relctl $(DESTDIR)$(MANDIR)/relctl.1 $(DESTDIR)$(BASHDIR)/relctl \
	      $(DESTDIR)$(ZSHDIR)/_relctl $(DESTDIR)$(FISHDIR)/relctl.fish $(DESTDIR)$(DATADIR)/config.schema.json
	rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || true

# Rewrites the committed completion scripts and manual from the model.
generate:
	swift build --product relctl
	.build/debug/relctl completion bash > completions/relctl.bash
	.build/debug/relctl completion zsh > completions/_relctl
	.build/debug/relctl completion fish > completions/relctl.fish
	.build/debug/relctl __manpage > man/relctl.1

# Builds relctl and runs a sample day on a throw-away database.
demo:
	scripts/deps.sh build
	swift build --product relctl
	scripts/demo.sh

# What a person runs often: the unit and in-process command tests, on a
# machine with only Swift and libsqlite3-dev. Left out: the classes that
# start processes (shells, rclone and S3, a browser, the binary under kills
# and a full disk), fuzz, or hold the zone reader to the C library for every
# zone (SLOW), the proofs that run whole suites and corpora through the
# debug build (PROOFS: the conformance suite against every wrong reading,
# every hint pasted, every bad value, generated scenarios, a full time sweep,
# the signed steps against every client that skips a check, each a few
# seconds to half a minute), and the tests that need a tool beyond
# the build's (TOOLS: the sqlite3 shell for edits by hand, nginx, ssh-keygen,
# openssl). `make check` runs them all, as CI does.
SLOW = CrashPointTests|HardeningRoundThreeTests|FuzzTests|EndToEndTests|DeployTests|StatusPageBrowserTests|PublishWatchTests|CompletionTests|HardeningTests|HardeningRoundTwoTests|PlatformsAtOnceTests|DryRunJSONTests|ZoneRulesTests
PROOFS = NotesShownTests/testFilesAreTheSameWithOnlyTheNotesTheyShow|ConformanceWrongReadingsTests|ConformanceSuiteTests|PastedHintTests|BadInputCorpusTests|FidelityScenarioTests/testGeneratedScenariosHaveNoDisagreement|FidelityScenarioTests/testFirstFindingOfEachLimitSaysWhatEveryFindingSays|TimeSweepTests/testTheScopedSweepFindsWhatAFullSweepFinds|HelpExampleTests/testReadingExamplesRunOnASampleProject|SignedFilesTests/testRelctlClientPassesTheSignedSteps|SignedFilesTests/testTheSignedStepsFailEveryClientThatSkipsACheck
TOOLS = Ed25519Tests/testAgreesWithOpenSSLOnRandomKeysAndMessages|SignedFilesTests/testKeysAreMadeOnceReadableByTheirOwnerAndReadByOpenSSL|SignedFilesTests/testPublishSignsWhatOpenSSLVerifiesAndNeverShipsUnsigned|HandEditTests|IncrementalPublishTests/testIncrementalPublishesGiveTheTreeOfAFullPublish|IncrementalPublishTests/testAFewFilesAreFlushedOneByOneAndANewTreeAtOnce|IncrementalPublishTests/testAnIndexThatComesOutTheSameIsNotWritten|ReleaseClientTests/testBadDocumentsNeverReplaceTheLastGoodOne|ReleaseClientTests/testDownloadsFromAWebServer|UndoTests/testAHandEditIsNeverOverwritten|ChangeCaptureTests/testAHandEditIsNotCapturedAndNothingIsLeftNoted|ConfigApplyTests/testRunsOfNewVersionsAreMadeInSlicesWithTheirOwnNotes|ConfigApplyTests/testWithoutMarksNewVersionsAreLoggedInTheOrderMade|ConfigApplyTests/testALargeChangeIsReadBackWholeAndItsFirstBadRowNamed|ApprovalTests
test:
	swift build --build-tests
	swift test --skip-build --disable-swift-testing --parallel --skip '$(SLOW)|$(PROOFS)|$(TOOLS)'

# The whole test suite: unit, command, end-to-end, shell and install tests.
check:
	scripts/deps.sh test
	scripts/check-layers.sh
	scripts/check-layers.sh --self-test
	# What an app adds carries no unsafe flag in Package.swift; its warnings are errors here.
	swift build --target RelctlClient --scratch-path .build/client-strict -Xswiftc -warnings-as-errors
	swift build --build-tests
	swift test --skip-build --disable-swift-testing
	scripts/install-test.sh

# Random command lines and databases for FUZZ_SECONDS (make check runs 20 s);
# FUZZ_SEED replays a run whose seed a failure printed.
FUZZ_SECONDS ?= 600
fuzz:
	swift build --build-tests
	RELCTL_FUZZ_SECONDS=$(FUZZ_SECONDS) $(if $(FUZZ_SEED),RELCTL_FUZZ_SEED=$(FUZZ_SEED)) \
		swift test --skip-build --disable-swift-testing --filter FuzzTests

bench:
	scripts/deps.sh test
	bench/run

clean:
	rm -rf .build
