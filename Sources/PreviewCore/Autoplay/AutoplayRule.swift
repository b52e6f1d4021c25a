import Glibc

/// Autoplay's rule (docs/autoplay.md): which catalog songs go on after the
/// queue's last one. Pure: the caller reads the catalog and hands the
/// answers in as `Candidate`s; this part weighs and picks.
///
/// The seeds are the last `seedCount` songs the user played (autoplay's
/// own only when there are none), the latest weighing most
/// (`seedWeights`). From each seed's artist come its radio, its top
/// tracks, its related artists' top tracks and the chart of its album's
/// genre, each source weighted (`Source.weight`); a song reached from
/// several seeds or sources adds their weights up. Songs are then drawn
/// at random in proportion to their weight, never one heard in the last
/// `PlayHistory.limit` plays, already queued, or unplayable, and never a
/// third in a row by one artist.
public enum AutoplayRule {
    /// Songs played lately that seed the choice.
    public static let seedCount = 5
    /// Each seed's weight, the latest first.
    public static let seedWeights: [Double] = [5, 4, 3, 2, 1]
    /// The most songs in a row by one artist (counting the queue's end).
    public static let maxRun = 2
    /// The most candidates kept between reads: past it the lightest go
    /// (a catalog answering with long lists must not grow the daemon).
    public static let maxPool = 1000
    /// What a song added by autoplay carries, as its `Comment` tag's start
    /// (`Comment: autoplay: like "TITLE"`): clients show why it is there,
    /// and it leaves the queue once played.
    public static let commentPrefix = "autoplay: "

    /// Where a candidate came from, and how much that counts.
    public enum Source: String, Sendable, CaseIterable {
        /// The seed artist's radio (`/artist/ID/radio`).
        case radio
        /// The seed artist's top tracks (`/artist/ID/top`).
        case top
        /// A related artist's top tracks (`/artist/ID/related`, then its top).
        case related
        /// The chart of the seed album's genre (`/chart/GENRE/tracks`).
        case genre

        /// The order sources are merged in (the list's order).
        public var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }

        /// The source's weight: the artist's own mix first, a genre's chart last.
        public var weight: Double {
            switch self {
            case .radio: 1.0
            case .top: 0.8
            case .related: 0.5
            case .genre: 0.3
            }
        }
    }

    /// A song the catalog offered for one seed.
    public struct Candidate: Sendable, Equatable {
        /// The song, as the catalog's list gave it.
        public var song: Song
        /// The artist compared for runs: the name, case folded.
        public var artist: String
        /// The sum of seed weight x source weight over every way it was reached.
        public var weight: Double
        /// The seed's title (or artist) it is like, for the `Comment` tag.
        public var like: String

        /// - Parameters: as the properties.
        public init(song: Song, artist: String, weight: Double, like: String) {
            self.song = song
            self.artist = artist
            self.weight = weight
            self.like = like
        }
    }

    /// Merges `found` (one answer's songs, from seed number `seed`, 0 the
    /// latest) into `pool`: a song already there adds the weight, else it
    /// joins with `seedWeights[seed] x source.weight`. At most `maxPool`
    /// stay, the heaviest (ties: the earlier).
    public static func merge(_ found: [Candidate], seed: Int, source: Source, into pool: inout [Candidate]) {
        let weight = seedWeights[min(max(seed, 0), seedWeights.count - 1)] * source.weight
        var at = [String: Int](minimumCapacity: pool.count)
        for (i, c) in pool.enumerated() { at[c.song.uri] = i }
        for var c in found {
            if let i = at[c.song.uri] {
                pool[i].weight += weight
            } else {
                c.weight = weight
                at[c.song.uri] = pool.count
                pool.append(c)
            }
        }
        if pool.count > maxPool {
            let kept = pool.enumerated().sorted { ($0.element.weight, -$0.offset) > ($1.element.weight, -$1.offset) }
                .prefix(maxPool).map(\.offset).sorted()
            pool = kept.map { pool[$0] }
        }
    }

    /// Up to `count` songs from `pool`, in the order to play: drawn at
    /// random in proportion to weight (each key `-ln(u) / weight`, the
    /// smallest first), skipping what `heard` or `queued` holds and
    /// unplayable songs, and putting off a song that would make its
    /// artist's run longer than `maxRun` after `tail` (the artists heard
    /// last, oldest first).
    /// - Returns: the picks, and the pool left without them and without
    ///   the songs skipped for good (heard, queued, unplayable).
    public static func pick(
        _ count: Int, from pool: [Candidate], heard: PlayHistory, queued: Set<String>,
        tail: [String], using rng: inout SplitMix64
    ) -> (picks: [Candidate], rest: [Candidate]) {
        let usable = pool.filter { $0.song.unplayable == nil && !heard.contains($0.song.uri) && !queued.contains($0.song.uri) }
        var ordered = usable.map { c -> (Double, Candidate) in
            // u in (0, 1]: never ln(0).
            let u = Double(rng.next() >> 11 + 1) / Double(1 << 53)
            return (-log(u) / max(c.weight, 1e-9), c)
        }.sorted { $0.0 < $1.0 }.map(\.1)
        var picks: [Candidate] = []
        var artists = tail
        while picks.count < count, let i = ordered.firstIndex(where: { !wouldRun($0.artist, after: artists) }) {
            let c = ordered.remove(at: i)
            picks.append(c)
            artists.append(c.artist)
        }
        return (picks, ordered)
    }

    /// Whether `artist` after `artists` (oldest first) would be more than
    /// `maxRun` in a row.
    public static func wouldRun(_ artist: String, after artists: [String]) -> Bool {
        artists.suffix(maxRun).count == maxRun && artists.suffix(maxRun).allSatisfy { $0 == artist }
    }

    /// `song` as autoplay adds it: its `Comment` tag says what it is like.
    public static func tagged(_ c: Candidate) -> Song {
        var song = c.song
        song.addedTags.append(TagValue(name: "Comment", value: commentPrefix + "like \"\(c.like)\""))
        return song
    }

    /// Whether autoplay added `song` (its `Comment` tag).
    public static func added(_ song: Song) -> Bool {
        song.addedTags.contains { $0.name == "Comment" && $0.value.hasPrefix(commentPrefix) }
    }
}
