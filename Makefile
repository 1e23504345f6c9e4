# LookStudio — build, test and demo on Debian with the Swift toolchain.
# `make demo` and `make test` install missing Debian packages first (with sudo when not root).

SWIFT ?= swift
# Hot code (the per-pixel loops, the fit, dlib, the plugins) is optimised in debug builds too when this is set; the
# flags are unsafeFlags, which a package depending on LookStudio must not see, so Package.swift applies them only
# under this variable (see optimisedDebug there). Every target below builds with it.
export LOOKSTUDIO_OPTIMISED_DEBUG := 1
APT_PACKAGES := libpng-dev zlib1g-dev libsqlite3-dev libyaml-dev libjpeg62-turbo-dev pkg-config \
	libdlib-dev libblas-dev liblapack-dev liblcms2-dev libtiff-dev libheif-dev libwebp-dev libssl-dev chromium \
	python3-numpy python3-cffi python3-venv python3-scipy python3-pil python3-skimage imagemagick \
	libexiv2-dev libimage-exiftool-perl opencolorio-tools liblcms2-utils ffmpeg \
	chromium-driver python3-selenium binutils nodejs
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: apt-packages deps build release test demo bench looks clean fuzz fuzz-smoke fuzz-cli test-asan test-tsan train-correction \
	train-correction-smoke eval-correction install python test-sdk test-sdk-threads test-sdk-tsan bench-sdk

# The Debian packages the project needs, one line (.ci/run upgrades and reports them).
apt-packages:
	@echo $(APT_PACKAGES)

deps:
	@missing=""; for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# CI runs exactly this (.ci/run): the suite, Node's syntax check of the web pages' scripts
# (scripts/check-web-assets.sh), the studio in headless Chromium (scripts/studio-browser-test.sh), then the fuzz
# smoke: every libFuzzer target for SMOKE_RUNS executions from a fixed seed (SMOKE_SECONDS caps each), so CI runs the
# very inputs this command runs here; it fails on a crash or on a harness that no longer builds.
SMOKE_RUNS ?= 20000
SMOKE_SECONDS ?= 60
test: deps
	./scripts/check-architecture
	./scripts/check-sizes.py Sources Plugins BuildTools
	$(SWIFT) test
	./scripts/check-web-assets.sh
	./scripts/check-avx2-build.py .build/debug
	./scripts/studio-browser-test.sh .build/debug/lookstudio
	$(MAKE) test-sdk
	FUZZ_RUNS=$(SMOKE_RUNS) FUZZ_SECONDS=$(SMOKE_SECONDS) ./scripts/fuzz.sh

# The embedding API (docs/API.md): `make install` into a temporary prefix, then the C, Python and Swift examples
# built against it and compared byte for byte with the command line, bad input through C and Python, and
# SDK_THREAD_SECONDS of 8 threads applying different looks through one engine (scripts/check-sdk.sh).
SDK_THREAD_SECONDS ?= 5
test-sdk: deps
	$(SWIFT) build
	SDK_THREAD_SECONDS=$(SDK_THREAD_SECONDS) ./scripts/check-sdk.sh .build/debug

# The acceptance run of the thread test: 30 seconds.
test-sdk-threads: deps
	$(SWIFT) build
	SDK_ONLY=threads SDK_THREAD_SECONDS=30 ./scripts/check-sdk.sh .build/debug

# The thread test under ThreadSanitizer: the C library built with -sanitize=thread in its own folder, the test
# program with clang's -fsanitize=thread (scripts/sdk-tsan.sh).
test-sdk-tsan: deps
	SDK_THREAD_SECONDS=$(SDK_THREAD_SECONDS) ./scripts/sdk-tsan.sh

# Figures for the embedding API against the CLI's apply core (release build, scripts/bench-sdk.sh).
bench-sdk: release
	./scripts/bench-sdk.sh .build/release

# Installs the command line, the plugins, liblookstudio.so, lookstudio.h, lookstudio.pc and the seed into PREFIX
# (CONFIG=debug installs the debug build, as make test does into a temporary prefix).
PREFIX ?= /usr/local
CONFIG ?= release
install: deps
	$(SWIFT) build -c $(CONFIG)
	./scripts/install.sh "$(PREFIX)" "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)"

# A wheel of the Python package (pure Python over liblookstudio, which `make install` provides) in .build/python.
python:
	python3 -m pip wheel --no-deps --no-build-isolation -w .build/python ./python

# Fuzzing (Fuzz/README.md): every libFuzzer target for FUZZ_SECONDS each; one line per target; fails on a crash.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz.sh

# The fuzz smoke alone (what `make test` runs after the suite).
fuzz-smoke: deps
	FUZZ_RUNS=$(SMOKE_RUNS) FUZZ_SECONDS=$(SMOKE_SECONDS) ./scripts/fuzz.sh

# A mutation fuzz of the command line, not part of `make test`: CLI_FUZZ_COUNT mutated LUTs (CLF and CDL included),
# photos and recipes from Fuzz/seeds and Tests/Fixtures through inspect, import, convert, apply, compose and info of
# a release build; fails on a signal, a failure without an `error: ` line, an output left behind, or a timeout
# (scripts/cli-mutation-fuzz.py; the same CLI_FUZZ_SEED gives the same inputs). The built-in plugins are built too,
# so recipes' adjustments resolve: a --product build leaves them out.
CLI_FUZZ_COUNT ?= 5000
CLI_FUZZ_SEED ?= 56
CLI_FUZZ_JOBS ?= 2
fuzz-cli: deps
	$(SWIFT) build -c release --product lookstudio
	for p in TonePlugin WhiteBalancePlugin ColorPlugin BlendPlugin GradePlugin; do \
		$(SWIFT) build -c release --product $$p || exit 1; done
	./scripts/cli-mutation-fuzz.py --binary .build/release/lookstudio --count $(CLI_FUZZ_COUNT) \
		--seed $(CLI_FUZZ_SEED) --jobs $(CLI_FUZZ_JOBS)

# The suite under AddressSanitizer + UndefinedBehaviorSanitizer, and under ThreadSanitizer, each in its own build
# folder (heavy: several times the normal build time and memory). swiftc has no -sanitize=undefined on Linux (Swift
# code has its own overflow and bounds checks in debug builds), so UBSan covers the C targets (PNG shim, plugins),
# in trap mode: no runtime library to link, undefined behaviour stops the test with SIGILL.
# swiftc links the TSan runtime into executables without exporting its symbols, so a Swift plugin built with TSan
# (BlendPlugin) fails to dlopen ("undefined symbol: __tsan_external_write"); --export-dynamic exports them.
test-asan: deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=0 \
		$(SWIFT) test --scratch-path .build-asan --sanitize=address -Xcc -fsanitize=undefined -Xcc -fsanitize-trap=undefined

test-tsan: deps
	$(SWIFT) test --scratch-path .build-tsan --sanitize=thread -Xlinker --export-dynamic

demo: release
	./scripts/demo.sh .build/release/lookstudio

bench: release
	.build/release/lookstudio bench all

# Regenerates the shipped looks (Looks/*.png + *.yaml) from Sources/LookCatalog/ShippedLooks.swift: recipe looks are
# composed with the built-in plugins of this build, the others rendered from their colour functions.
looks: build
	.build/debug/lookstudio looks render-shipped --out Looks

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan out

# The learned correction (docs/CORRECTION.md): corpus from Debian packages into .corpus/ (outside git), then
# the model trained on its train split and calibrated on its validation split (2 workers, niced: shared machine).
CORPUS_DIR ?= .corpus
CORPUS_MANIFEST := scripts/train/corpus-manifest.csv
CORRECTION_MODEL := Sources/CorrectionModel/Resources/correction-model.lscm
train-correction: deps
	./scripts/corpus.sh $(CORPUS_DIR) $(CORPUS_MANIFEST)
	cd scripts/train && nice -n 10 /usr/bin/python3 train.py corpus-manifest.csv $(abspath $(CORPUS_DIR)) \
		../../$(CORRECTION_MODEL) > training-record.json.tmp && mv training-record.json.tmp training-record.json

# A handful of photos and iterations: checks the pipeline end to end in seconds; writes to /tmp, not the model.
train-correction-smoke: deps
	./scripts/corpus.sh $(CORPUS_DIR) $(CORPUS_MANIFEST)
	cd scripts/train && nice -n 10 /usr/bin/python3 train.py corpus-manifest.csv $(abspath $(CORPUS_DIR)) \
		/tmp/correction-model-smoke.lscm --smoke

# The realistic evaluation on the test split (docs/CORRECTION.md's table).
eval-correction: deps
	cd scripts/train && nice -n 10 /usr/bin/python3 evaluate.py corpus-manifest.csv $(abspath $(CORPUS_DIR)) \
		../../$(CORRECTION_MODEL) --json $(abspath $(CORPUS_DIR))/eval-test.json
