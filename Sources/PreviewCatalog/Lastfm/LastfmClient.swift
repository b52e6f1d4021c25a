import FoundationEssentials
import PreviewCore

/// Last.fm's top lists by country (`geo.getTopTracks`, `geo.getTopArtists`)
/// and by tag (`tag.getTopTracks`, `tag.getTopArtists`, `tag.getTopAlbums`),
/// for country and tag charts. Last.fm sends numbers as strings, may omit
/// `mbid`, and reports errors as `{"error":N,"message":…}` with HTTP 200 or 4xx.
package final class LastfmClient {
    /// What a chart lists. Last.fm has no album chart by country.
    package enum Kind: String {
        case tracks, artists, albums
    }

    /// One chart entry: the artist, and the track's or album's title (nil
    /// in an artist chart).
    package struct Entry: Equatable {
        package var artist: String
        package var title: String? = nil

        /// `Artist - Title`, or the artist alone: how the entry is named to
        /// users (`unresolved_name:` lines).
        package var name: String { title.map { "\(artist) - \($0)" } ?? artist }
    }

    /// One page of a chart: its entries in Last.fm's order, and
    /// `@attr.total` (entries in the whole chart) when Last.fm gave one.
    package struct Chart: Equatable {
        package var entries: [Entry]
        package var total: Int?
    }

    let base: String
    let key: String?
    /// Whether there is a key to ask Last.fm with (without one, every chart fails with `.noKey`).
    package var hasKey: Bool { key != nil }
    /// Where a key file would be read (for the message when none is set).
    package var keyFileHint = "~/.config/previewd/lastfm.key"
    private let get: DeezerClient.HTTPGet
    private let decoder = JSONDecoder()

    package init(base: String, key: String?, get: @escaping DeezerClient.HTTPGet) {
        self.base = base
        self.key = key
        self.get = get
    }

    /// One page of the top `kind` of a country (its English name, e.g.
    /// `canada`) or of a tag; exactly one of `country` and `tag` is given.
    /// - Parameters:
    ///   - limit: entries per page (Last.fm's `limit`); `page` counts from 1.
    ///   - completion: the page, or why there is none (its `protocolError`
    ///     is the ACK to send): `.noAlbumsByCountry` before any request for
    ///     albums by country, `.noKey` without a key.
    package func top(
        _ kind: Kind, country: String?, tag: String?, limit: Int, page: Int = 1,
        completion: @escaping (Result<Chart, LastfmError>) -> Void
    ) {
        if kind == .albums, country != nil {
            completion(.failure(.noAlbumsByCountry))
            return
        }
        guard let key else {
            completion(.failure(.noKey(keyFile: keyFileHint)))
            return
        }
        var query = "?method="
        if let country {
            query += "geo.gettop\(kind.rawValue)&country=" + percentEncodeQueryValue(country)
        } else {
            query += "tag.gettop\(kind.rawValue)&tag=" + percentEncodeQueryValue(tag ?? "")
        }
        query += "&limit=\(limit)&page=\(page)&api_key=" + percentEncodeQueryValue(key) + "&format=json"
        get(base + query) { [decoder] result in
            // At most `limit` entries, whatever came: each costs a Deezer search.
            completion(
                LastfmClient.chart(kind, in: result, decoder: decoder).map {
                    Chart(entries: Array($0.entries.prefix(limit)), total: $0.total)
                })
        }
    }

    /// The page in a top-list answer. An error object wins over the HTTP
    /// status: Last.fm sends those with 200 as well as 4xx.
    private static func chart(_ kind: Kind, in result: HTTPResult, decoder: JSONDecoder) -> Result<Chart, LastfmError> {
        if let e = result.transportError, result.body.isEmpty { return .failure(.transport(e)) }
        let data = Data(CatalogText.normalizeJSON(result.body))
        if let error = try? decoder.decode(ErrorBody.self, from: data) {
            return .failure(.api(code: error.error, message: error.message))
        }
        guard result.status == 200, let body = try? decoder.decode(TopBody.self, from: data),
            let list = body.chart(kind)
        else {
            return .failure(.malformed(status: result.status))
        }
        return .success(list)
    }
}

extension LastfmClient {
    private struct ErrorBody: Decodable {
        var error: Int
        var message: String?
    }

    /// The three root keys of Last.fm's top lists (`tracks`, `topartists`,
    /// `albums`, whether by country or by tag); the one asked for is read.
    private struct TopBody: Decodable {
        var tracks: TopList?
        var topartists: TopList?
        var albums: TopList?

        /// The page of `kind`; nil when its list is missing, or a track or
        /// album in it names no artist.
        func chart(_ kind: Kind) -> Chart? {
            if kind == .artists {
                return topartists.map { list in Chart(entries: list.items.map { Entry(artist: $0.name) }, total: list.total) }
            }
            guard let list = kind == .tracks ? tracks : albums else { return nil }
            let entries = list.items.compactMap { item in item.artist.map { Entry(artist: $0.name, title: item.name) } }
            return entries.count == list.items.count ? Chart(entries: entries, total: list.total) : nil
        }
    }

    /// `{"ITEM":[…],"@attr":{"total":"N",…}}`, ITEM being `track`,
    /// `artist` or `album`.
    private struct TopList: Decodable {
        var items: [Item]
        var total: Int?

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            guard let key = ["track", "artist", "album"].map(Key.init).first(where: c.contains) else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "no list"))
            }
            items = try c.decode([Item].self, forKey: key)
            total = (try? c.decodeIfPresent(Attr.self, forKey: Key("@attr")))?.total
        }
    }

    /// A track, artist or album: its name, and the artist of a track or album.
    private struct Item: Decodable {
        struct Artist: Decodable { var name: String }
        var name: String
        var artist: Artist?
    }

    /// `@attr`: only `total` is read, a string of digits as recorded (a
    /// number is taken too).
    private struct Attr: Decodable {
        var total: Int?

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            if let n = try? c.decode(Int.self, forKey: Key("total")) {
                total = n
            } else {
                total = (try? c.decode(String.self, forKey: Key("total"))).flatMap { Int($0) }
            }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Why a Last.fm chart could not be had. The client reports what happened;
/// `protocolError` alone decides the ACK code and words, as
/// `CatalogError.protocolError(item:)` does for Deezer.
package enum LastfmError: Error, Equatable {
    /// No API key is configured; `keyFile` is where one would be read.
    case noKey(keyFile: String)
    /// Albums by country were asked for: Last.fm has no `geo.getTopAlbums`.
    case noAlbumsByCountry
    /// No HTTP answer arrived: the transport's description.
    case transport(String)
    /// Last.fm's error object: its numeric code, and its message when it sent one.
    case api(code: Int, message: String?)
    /// Neither an error object nor a top list; `status` is the HTTP status.
    case malformed(status: Int)

    /// Last.fm error code 6, "invalid parameters": what it answers for a
    /// country or tag it does not know.
    static let invalidParameters = 6
}

extension LastfmError {
    /// The ACK for a client: `.noExist` for an unknown country or tag (so
    /// scripts can tell it from an outage), `.argument` for albums by
    /// country, `.system` for the rest.
    package var protocolError: ProtocolError {
        switch self {
        case .noKey(let keyFile):
            ProtocolError(
                .system,
                "Last.fm charts need an API key: start previewd with --lastfm-key KEY, "
                    + "set PREVIEWD_LASTFM_KEY, or write the key to \(keyFile)")
        case .noAlbumsByCountry:
            ProtocolError(.argument, "Last.fm has no album chart by country (no geo.getTopAlbums): give a tag")
        case .transport(let why):
            ProtocolError(.system, "cannot reach Last.fm: \(why)")
        case .api(let code, let message):
            ProtocolError(
                code == LastfmError.invalidParameters ? .noExist : .system,
                "Last.fm: \(message ?? "error") (Last.fm error \(code))")
        case .malformed(let status):
            ProtocolError(.system, "Last.fm: unexpected answer (HTTP status \(status))")
        }
    }
}
