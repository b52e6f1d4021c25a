/// Deezer's share links (what the app's Share button gives:
/// `https://deezer.page.link/...`, `https://link.deezer.com/...`): short
/// URLs that redirect to the item's `www.deezer.com` page. They are
/// resolved by asking for each hop with HEAD, so no page is downloaded.
public enum ShareLink {
    /// The hosts whose URLs are share links.
    public static let hosts: Set<String> = ["deezer.page.link", "link.deezer.com"]
    /// Most redirects followed before giving up.
    public static let maxHops = 5

    /// Whether `text` is an http(s) URL on a share-link host.
    public static func isShareLink(_ text: String) -> Bool {
        guard let host = host(of: text) else { return false }
        return hosts.contains(host)
    }

    /// What one hop's answer means.
    public enum Step: Equatable, Sendable {
        /// The redirect names a Deezer item: done.
        case item(CatalogURI)
        /// The redirect leads to another URL to ask.
        case follow(String)
        /// The link leads nowhere useful: the reason, for the user.
        case fail(String)
    }

    /// The next step after asking for `url`, given the answer's `status`,
    /// the redirect target `location` and a transport error.
    public static func step(status: Int, location: String?, transportError: String?) -> Step {
        if let transportError, status == 0 { return .fail("cannot resolve the share link: \(transportError)") }
        guard (300..<400).contains(status), let location, !location.isEmpty else {
            return .fail(
                status >= 400
                    ? "the share link does not lead anywhere (HTTP \(status))"
                    : "the share link leads to no Deezer item (HTTP \(status), no redirect)")
        }
        if let uri = try? CatalogURI(parsing: location) {
            if case .stream = uri {} else { return .item(uri) }
        }
        // Another short link, or a Deezer page that is not an item yet (a
        // localised or tracking URL): ask it too. Other sites are not asked.
        guard let next = host(of: location), hosts.contains(next) || next == "deezer.com" || next.hasSuffix(".deezer.com") else {
            return .fail("the share link leads to \(location), not to a Deezer item")
        }
        return .follow(location)
    }

    /// The lower-cased host of an http(s) URL, or nil.
    static func host(of text: String) -> String? {
        let lower = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: { lower.hasPrefix($0) }) else { return nil }
        let rest = lower.dropFirst(scheme.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != ":" }
        return host.isEmpty ? nil : String(host)
    }
}
