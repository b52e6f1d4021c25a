// swift-tools-version:6.0
// previewd: a headless Deezer-preview player that speaks the MPD protocol.
// Layering (lower never imports upper; ARCHITECTURE.md says why):
//   PreviewCore (pure), PreviewPlatform (OS; PreviewDBus and PreviewHTTP beside it)
//     -> PreviewFetch (libcurl) -> PreviewAudio (C libraries)  -> previewd
//     -> PreviewStorage -> PreviewCatalog -> PreviewPlayback
//          -> PreviewDesktop -> PreviewServer -> PreviewDaemon -> previewd
//   PreviewCore -> PreviewControl; PreviewPlatform -> PreviewClient (MPD) -> previewctl
//   PreviewControl, PreviewClient, PreviewHTTP -> PreviewWeb   -> previewweb
//   PreviewDaemon, PreviewControl -> PreviewFuzz               -> previewfuzz
// PreviewPlatform owns the OS concepts (descriptors, sockets, poll,
// signals, processes, files, clocks) and the SQLite wrapper (the Library's
// store); it imports Glibc and CSQLite only, so previewctl links no
// Foundation. previewctl, linked static, carries libsqlite3.a unused (1.7 MB
// more in release; it still links and runs without a loader).
import PackageDescription

// Release builds of the control side's code (every command goes through the
// protocol, and most through the playback owner, the catalog or storage)
// leave out the run-time exclusivity checks: on a pipelined `status` they
// cost a tenth of the time (the controller's `statusKey` alone a third more
// when only the protocol left them out). Debug builds, which the tests run,
// keep them, so an overlapping access still traps there.
let perCommandPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

// previewctl is bound to hotkeys, where a run is about 1.5 ms and each page
// it touches costs a page fault: it waits for no dynamic loader (a static
// executable, except under the sanitizers, whose runtimes need one), and in
// release lld lays the functions a hotkey runs side by side
// (Sources/previewctl/link-order.txt, written by contrib/previewctl-order),
// which needs each function in a section of its own. docs/performance.md,
// "Linking", has the figures.
let hotkeySections: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
let hotkeyLinking: [LinkerSetting] =
    Context.environment["PREVIEWD_DYNAMIC_CTL"] != nil
    ? []
    : [
        .unsafeFlags(["-static-executable"]),
        .unsafeFlags(
            [
                "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/previewctl/link-order.txt",
                "-Xlinker", "--no-warn-symbol-ordering",
            ], .when(configuration: .release)),
    ]

let package = Package(
    name: "previewd",
    products: [
        .executable(name: "previewd", targets: ["previewd"]),
        .executable(name: "previewctl", targets: ["previewctl"]),
        .executable(name: "previewweb", targets: ["previewweb"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CMpg123", path: "Sources/CMpg123", pkgConfig: "libmpg123",
            providers: [.apt(["libmpg123-dev"])]),
        // No pkgConfig: libpulse.pc adds -D_REENTRANT and -pthread, which
        // SwiftPM refuses with a warning on every build and which glibc
        // (2.34 on, pthreads inside libc) no longer needs; the headers are in
        // /usr/include and the module map links libpulse.
        .systemLibrary(
            name: "CPulse", path: "Sources/CPulse",
            providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(
            name: "CEbur128", path: "Sources/CEbur128", pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // glibc's <malloc.h> (malloc_trim), part of libc itself.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(
            name: "CMicrohttpd", path: "Sources/CMicrohttpd", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        // The HTTP stream's encoders (LAME has no pkg-config file; the module
        // map links it) and the resampler before them.
        .systemLibrary(name: "CLame", path: "Sources/CLame", providers: [.apt(["libmp3lame-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CFLAC", path: "Sources/CFLAC", pkgConfig: "flac",
            providers: [.apt(["libflac-dev"])]),
        .systemLibrary(
            name: "CSoxr", path: "Sources/CSoxr", pkgConfig: "soxr",
            providers: [.apt(["libsoxr-dev"])]),
        .target(name: "PreviewCore", swiftSettings: perCommandPath + hotkeySections),
        .target(name: "PreviewPlatform", dependencies: ["CSQLite", "CMalloc"], swiftSettings: hotkeySections),
        // The D-Bus connection (sd-bus), a target and folder of its own
        // beside the platform because previewctl links PreviewPlatform
        // statically and Debian ships no libsystemd.a.
        .target(name: "PreviewDBus", dependencies: ["PreviewPlatform", "CSystemd"]),
        // The network side of playback: libcurl transfers into bounded rings,
        // whole downloads kept for prefetch and replay, the catalog's GETs.
        .target(name: "PreviewFetch", dependencies: ["PreviewCore", "PreviewPlatform", "CCurl"]),
        .target(
            name: "PreviewAudio",
            dependencies: [
                "PreviewCore", "PreviewPlatform", "PreviewFetch", "PreviewHTTP", "CMpg123", "CPulse", "CEbur128",
                "CLame", "CFLAC", "CSoxr",
            ]),
        // The control side, by concern; each imports only the ones above it.
        .target(name: "PreviewStorage", dependencies: ["PreviewCore", "PreviewPlatform"], swiftSettings: perCommandPath),
        .target(
            name: "PreviewCatalog", dependencies: ["PreviewCore", "PreviewPlatform", "PreviewStorage"],
            swiftSettings: perCommandPath),
        .target(
            name: "PreviewPlayback", dependencies: ["PreviewCore", "PreviewPlatform", "PreviewStorage", "PreviewCatalog"],
            swiftSettings: perCommandPath),
        .target(
            name: "PreviewDesktop", dependencies: ["PreviewCore", "PreviewPlatform", "PreviewDBus", "PreviewPlayback"],
            swiftSettings: perCommandPath),
        .target(
            name: "PreviewServer",
            dependencies: [
                "PreviewCore", "PreviewPlatform", "PreviewStorage", "PreviewCatalog", "PreviewPlayback",
                "PreviewDesktop",
            ],
            swiftSettings: perCommandPath),
        // previewd's own: its options and settings file, one instance wired
        // (catalog, controller, stores, command table), the socket server
        // and its loop.
        .target(
            name: "PreviewDaemon",
            dependencies: [
                "PreviewServer", "PreviewCore", "PreviewPlatform", "PreviewStorage", "PreviewCatalog", "PreviewPlayback",
                "PreviewDesktop",
            ],
            swiftSettings: perCommandPath),
        .executableTarget(
            name: "previewd", dependencies: ["PreviewDaemon", "PreviewAudio", "PreviewFetch", "PreviewHTTP", "PreviewPlatform"]),
        // The web front end: libmicrohttpd beside the platform (as sd-bus is),
        // the routes over the MPD socket, and the executable that wires them.
        .target(name: "PreviewHTTP", dependencies: ["PreviewCore", "PreviewPlatform", "CMicrohttpd", "CZlib"]),
        // The page's files (HTML, CSS, ES modules) are compiled into the binary.
        .target(
            name: "PreviewWeb", dependencies: ["PreviewCore", "PreviewControl", "PreviewClient", "PreviewPlatform", "PreviewHTTP"],
            resources: [.embedInCode("Page")]),
        .executableTarget(name: "previewweb", dependencies: ["PreviewWeb", "PreviewHTTP", "PreviewCore", "PreviewPlatform"]),
        // previewctl: its command table, parser, formats and JSON (also the
        // page's catalog documents), then the executable that wires them.
        .target(name: "PreviewControl", dependencies: ["PreviewCore"], swiftSettings: perCommandPath + hotkeySections),
        // The one Swift MPD client (previewctl's, previewweb's): connect,
        // check the peer, requests and command lists, binary replies.
        .target(name: "PreviewClient", dependencies: ["PreviewCore", "PreviewPlatform"], swiftSettings: hotkeySections),
        .executableTarget(
            name: "previewctl", dependencies: ["PreviewControl", "PreviewClient", "PreviewCore", "PreviewPlatform"],
            exclude: ["link-order.txt"], swiftSettings: hotkeySections, linkerSettings: hotkeyLinking),
        // Fuzzing harness (contrib/fuzz/run builds it with -sanitize=fuzzer);
        // built normally, it replays inputs.
        .target(name: "CFuzzDriver", path: "Sources/CFuzzDriver"),
        // The fuzz targets: the code each input runs, shared by the harness
        // and its regression tests.
        .target(
            name: "PreviewFuzz",
            dependencies: [
                "PreviewDaemon", "PreviewServer", "PreviewControl", "PreviewCore", "PreviewPlatform", "PreviewStorage", "PreviewCatalog",
                "PreviewPlayback", "PreviewDesktop",
            ]),
        .executableTarget(
            name: "previewfuzz", dependencies: ["PreviewFuzz", "PreviewCore", "PreviewPlatform", "CFuzzDriver"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .testTarget(name: "PreviewCoreTests", dependencies: ["PreviewCore"]),
        .testTarget(name: "PreviewControlTests", dependencies: ["PreviewControl", "PreviewCore"]),
        .testTarget(name: "PreviewClientTests", dependencies: ["PreviewClient", "PreviewCore", "PreviewPlatform"]),
        .testTarget(
            name: "PreviewFuzzTests",
            dependencies: ["PreviewFuzz", "PreviewCore", "PreviewPlatform", "PreviewStorage", "PreviewTestSupport"]),
        // What the unit tests share: a recording engine, the recorded Deezer
        // answers, the catalog alone over them, and a whole daemon's control
        // side over those (`Harness`).
        .target(
            name: "PreviewTestSupport",
            dependencies: ["PreviewCore", "PreviewPlatform", "PreviewCatalog", "PreviewPlayback", "PreviewServer", "PreviewDaemon"],
            path: "Tests/PreviewTestSupport"),
        .testTarget(name: "PreviewStorageTests", dependencies: ["PreviewStorage", "PreviewCore", "PreviewPlatform"]),
        .testTarget(name: "PreviewCatalogTests", dependencies: ["PreviewCatalog", "PreviewCore", "PreviewPlatform", "PreviewTestSupport"]),
        .testTarget(
            name: "PreviewPlaybackTests",
            dependencies: [
                "PreviewPlayback", "PreviewCatalog", "PreviewCore", "PreviewPlatform", "PreviewStorage", "PreviewServer",
                "PreviewTestSupport",
            ]),
        .testTarget(name: "PreviewDesktopTests", dependencies: ["PreviewDesktop", "PreviewCore", "PreviewDBus"]),
        .testTarget(
            name: "PreviewServerTests",
            dependencies: [
                "PreviewServer", "PreviewDaemon", "PreviewCore", "PreviewPlatform", "PreviewDBus", "PreviewStorage",
                "PreviewCatalog", "PreviewPlayback", "PreviewDesktop",
                "PreviewTestSupport",
            ]),
        .testTarget(name: "PreviewPlatformTests", dependencies: ["PreviewPlatform", "PreviewDBus"]),
        .testTarget(name: "PreviewHTTPTests", dependencies: ["PreviewHTTP", "PreviewCore"]),
        .testTarget(name: "PreviewWebTests", dependencies: ["PreviewWeb", "PreviewControl", "PreviewCore"]),
        .testTarget(
            name: "PreviewAudioTests", dependencies: ["PreviewAudio", "PreviewFetch", "PreviewCore", "PreviewHTTP", "PreviewTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
