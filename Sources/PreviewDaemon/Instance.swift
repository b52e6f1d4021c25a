import PreviewCatalog
import PreviewCore
import PreviewPlatform
import PreviewServer
import PreviewPlayback
import PreviewStorage

/// Everything one daemon serves with, wired in one place (as MPD's
/// `Instance`): the catalog clients, the player controller, the stored
/// playlists, the want list, the Library and the command table. `Server` builds it for
/// previewd; the tests' harness and the fuzzer build it the same way, with
/// a fake engine, canned HTTP answers and a clock they move.
package final class Instance {
    let log: Log
    let catalog: DeezerClient
    /// The catalog as models: what browsing, search and the queue's adds resolve through.
    let browser: CatalogBrowser
    let lastfm: LastfmClient
    package let controller: PlayerController
    package let playlists: PlaylistStore
    package let wants: WantList
    package let library: Library
    let libraryUpdater: LibraryUpdater
    package let hub = MessageHub()
    /// Every command, bound to the parts above.
    package let table: CommandTable

    /// - Parameters:
    ///   - options: the daemon's settings (API bases, state directory,
    ///     cache lifetime, prefetch, `previous` restart, the output's name).
    ///   - engine: the audio side.
    ///   - get: issues one catalog HTTP GET; its completion runs later on the
    ///     control thread.
    ///   - head: issues one HEAD without following redirects (share links),
    ///     completing the same way; nil refuses share links.
    ///   - schedule: runs a closure after a delay (seconds) on the control thread.
    ///   - seed: the random source for play order and `shuffle`.
    ///   - maxQueueLength: songs the queue and each stored playlist hold at most.
    ///   - listener: told of each change the controller makes (held by it:
    ///     it must not hold the instance in turn).
    package init(
        options: DaemonOptions, engine: AudioEngine, log: Log, get: @escaping DeezerClient.HTTPGet,
        head: DeezerClient.HTTPGet? = nil,
        schedule: @escaping (Double, @escaping () -> Void) -> Void, clock: Clock = .system, seed: UInt64,
        maxQueueLength: Int = Queue.defaultMaxLength, listener: any PlaybackListener
    ) {
        self.log = log
        lastfm = LastfmClient(base: options.lastfmBase, key: Instance.lastfmKey(options, log: log), get: get)
        lastfm.keyFileHint = options.lastfmKeyFile
        catalog = DeezerClient(
            apiBase: options.apiBase, cacheTTL: options.catalogCacheTTL,
            now: clock.monotonic, wallClock: clock.wall, schedule: schedule, get: get)
        catalog.head = head
        let loudness = LoudnessBook(store: Instance.loudnessStore(options, log: log), log: log)
        loudness.preamp = options.replayGainPreamp
        browser = CatalogBrowser(client: catalog, previewURLs: PreviewURLCache(wallClock: clock.wall), maxSongs: maxQueueLength)
        controller = PlayerController(
            engine: engine, catalog: browser, log: log, seed: seed, clock: clock, loudness: loudness,
            outputs: Instance.outputEntries(options.outputs), maxQueueLength: maxQueueLength,
            schedule: schedule)
        controller.addListener(listener)
        controller.previousRestartSeconds = options.previousRestart
        controller.prefetchCount = options.prefetch
        controller.autoplayDefault(options.autoplay)
        playlists = PlaylistStore(directory: options.stateDirectory + "/playlists", maxLength: maxQueueLength)
        wants = WantList(file: JSONFile(path: options.stateDirectory + "/want.json", log: log))
        library = Library(directory: options.stateDirectory, log: log)
        libraryUpdater = LibraryUpdater(
            library: library, catalog: browser, jobs: controller, schedule: schedule,
            log: log, clock: clock)
        let services = Services(
            controller: controller, catalog: browser, hub: hub, playlists: playlists, lastfm: lastfm,
            wants: wants, library: library, libraryUpdater: libraryUpdater,
            stickers: Instance.stickerStore(options))
        services.ownCountry = { options.defaultCountry(in: $0) }
        table = Commands.table(services)
    }

    /// `sticker.sqlite` under the state directory, or why it cannot be
    /// opened (a damaged file is left for the user: stickers are theirs).
    /// The controller's `outputs` for the configured ones, as the engine runs them.
    static func outputEntries(_ configured: [OutputKind]) -> [PlayerController.OutputEntry] {
        let listed = OutputKind.listed(configured)
        return zip(listed, OutputKind.names(of: listed.map(\.kind))).map { output, name in
            PlayerController.OutputEntry(name: name, plugin: output.kind.name, enabled: output.enabled)
        }
    }

    private static func stickerStore(_ options: DaemonOptions) -> Result<StickerStore, StorageError> {
        let path = options.stateDirectory + "/sticker.sqlite"
        do { return .success(try StickerStore(path: path)) } catch { return .failure(.unreadable(path: path, error)) }
    }

    /// `loudness.sqlite` under the state directory; nil (measurements kept
    /// in memory, said in the log) when it cannot be opened.
    private static func loudnessStore(_ options: DaemonOptions, log: Log) -> LoudnessStore? {
        let path = options.stateDirectory + "/loudness.sqlite"
        do { return try LoudnessStore(path: path) } catch {
            log.warning("\(path): \(error); loudness measurements are kept until the daemon stops")
            return nil
        }
    }

    /// The Last.fm key given, else the one in the key file, else nil.
    /// A key file others may read gets a warning, as ssh gives for a
    /// private key's: the key is still used.
    private static func lastfmKey(_ options: DaemonOptions, log: Log) -> String? {
        if let key = options.lastfmKey {
            let source = options.sources["lastfm-key"]
            if source == "command line" {
                log.warning(
                    "--lastfm-key: other users of this machine can read a command line (/proc/PID/cmdline, ps); "
                        + "put the key in \(options.lastfmKeyFile) (chmod 600) instead")
            } else if let place = source, let colon = place.lastIndex(of: ":") {
                // A settings file's `FILE:LINE`: the file holds the key.
                let file = String(place[..<colon])
                if let mode = FileSystem.permissions(file), mode & 0o077 != 0 {
                    log.warning(
                        "\(file): permissions 0\(String(mode, radix: 8)) are too open: others may read the Last.fm key "
                            + "it holds; chmod 600 \(file)")
                }
            }
            return key
        }
        guard let bytes = try? AtomicFile.read(options.lastfmKeyFile) else { return nil }
        if let mode = FileSystem.permissions(options.lastfmKeyFile), mode & 0o077 != 0 {
            log.warning(
                "\(options.lastfmKeyFile): permissions 0\(String(mode, radix: 8)) are too open: "
                    + "others may read the Last.fm key; chmod 600 \(options.lastfmKeyFile)")
        }
        let key = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return key.isEmpty ? nil : key
    }
}
