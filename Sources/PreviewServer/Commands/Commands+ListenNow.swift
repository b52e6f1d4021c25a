import PreviewCatalog
import PreviewCore

extension Commands {
    // `catalognow`: Listen Now's sections, each opened by `section: TITLE`
    // and `sectionkind: country|picks|releases|want|morelike` (with
    // `sectioncountry: NAME` or `sectiongenre: ID`, where See All leads)
    // (the first, "Top songs in COUNTRY", when the daemon has a country);
    // a section still missing after `ListenNow.sectionWait` is left out
    // and holding album records (`album: deezer:album:ID`) or songs
    // (`file: deezer:track:ID`); a want-list entry the catalog cannot
    // describe is `file:` or `album:` with its URI alone.

    static func handleCatalognow(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let top = ownTopSongs(s).map { songs in
            songs.map { ListenNow.Section(title: $0.title, kind: .country($0.country), entries: $0.songs.map(ListenNow.Entry.song)) }
        }
        let schedule = s.controller.schedule
        ListenNow.build(
            s.catalog, first: top, seed: moreLikeSeed(s), wants: s.wants.entries,
            bounded: { $0.within(ListenNow.sectionWait, or: nil, schedule: schedule) }
        ).run { sections in
            for section in sections {
                call.reply.field("section", section.title)
                call.reply.field("sectionkind", section.kind.name)
                switch section.kind {
                case .country(let name): call.reply.field("sectioncountry", name)
                case .moreLike(let genre): call.reply.field("sectiongenre", genre)
                default: break
                }
                for entry in section.entries { call.reply.listenNowEntry(entry, tags: call.session.tags) }
            }
            call.finish(nil)
        }
        return .pending
    }

    /// The top songs of the daemon's own country (`--country`, else the
    /// locale's), titled "Top songs in COUNTRY", at most
    /// `ListenNow.sectionSize`: Deezer's own chart of it without a Last.fm
    /// key (one request, the page `Listen Now/Top Songs in …` reads too),
    /// else Last.fm's top tracks, each found on Deezer (one Last.fm request
    /// and a search each). Nil without a country of one's own or a chart
    /// of it, or when the chart cannot be had.
    static func ownTopSongs(_ s: Services) -> Later<(title: String, country: String, songs: [Song])?> {
        guard let country = s.defaultCountry else { return .now(nil) }
        let title = "Top songs in " + country.displayName
        if deezerChart(of: country.code, s) != nil {
            // The tree entry's own songs, so both read one cached page.
            return Later { done in
                treeSongs(.countryChart(country.displayName), s) { result in
                    let songs = Array(((try? result.get()) ?? []).prefix(ListenNow.sectionSize))
                    done(songs.isEmpty ? nil : (title, country.displayName, songs))
                }
            }
        }
        guard s.lastfm.hasKey else { return .now(nil) }
        return Later { done in
            s.lastfm.top(.tracks, country: country.lastfmName, tag: nil, limit: ListenNow.sectionSize) { result in
                guard case .success(let chart) = result else { return done(nil) }
                s.catalog.resolve(chart.entries.prefix(ListenNow.sectionSize).map { (artist: $0.artist, title: $0.title ?? "") }) {
                    tracks in
                    let songs = tracks.compactMap { $0?.song() }
                    done(songs.isEmpty ? nil : (title, country.displayName, songs))
                }
            }
        }
    }

    /// The album Listen Now's More like starts from (`ListenNow.seed`):
    /// the newest saved, else the catalog track this daemon played last,
    /// else the chart's top album.
    static func moreLikeSeed(_ s: Services) -> Later<ListenNow.Seed?> {
        ListenNow.seed(
            s.catalog, saved: ListenNow.saved(library: Array(s.library.entries), wants: s.wants.entries),
            lastPlayed: s.controller.lastPlayedTrack)
    }

    /// `lsinfo deezer:now`: the sections as directories (`deezer:picks`,
    /// `deezer:releases`, `deezer:morelike`, `deezer:wantlist`);
    /// `lsinfo deezer:morelike`: the "More like" albums as directories.
    /// Answers false for any other URI.
    static func listenNowListing(_ uri: String, _ call: CommandCall, _ s: Services) -> Bool {
        switch uri {
        case "deezer:now":
            // Fixed names: listing them asks the catalog nothing (More like
            // always has a seed, a new user's too: `ListenNow.seed`).
            for d in ["deezer:picks", "deezer:releases", "deezer:morelike", "deezer:wantlist"] {
                call.reply.field("directory", d)
            }
            call.finish(nil)
        case "deezer:morelike":
            ListenNow.moreLike(s.catalog, moreLikeSeed(s)).run { section in
                for case .album(let album) in section?.entries ?? [] { call.reply.field("directory", "deezer:album:\(album.id)") }
                call.finish(nil)
            }
        default: return false
        }
        return true
    }
}

extension Reply {
    fileprivate mutating func listenNowEntry(_ entry: ListenNow.Entry, tags: TagSelection) {
        switch entry {
        case .album(let album): self.album(album)
        case .song(let song): self.song(song, tags: tags)
        case .unknown(let uri): field(uri.hasPrefix("deezer:album:") ? "album" : "file", uri)
        }
    }
}
