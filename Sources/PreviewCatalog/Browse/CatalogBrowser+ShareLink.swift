import PreviewCore

extension CatalogBrowser {
    /// The Deezer item a share link (`https://deezer.page.link/...`) leads
    /// to, following at most `ShareLink.maxHops` redirects with HEAD.
    /// - Parameter completion: the item, or `.noExist` "LINK: why" (a link
    ///   that leads nowhere, or to a page that is no Deezer item).
    package func resolveShareLink(_ link: String, completion: @escaping (Result<CatalogURI, ProtocolError>) -> Void) {
        guard let head = client.head else {
            completion(.failure(ProtocolError(.noExist, "\(link): share links cannot be resolved here")))
            return
        }
        var hops = 0
        func ask(_ url: String) {
            hops += 1
            head(url) { result in
                switch ShareLink.step(status: result.status, location: result.location, transportError: result.transportError) {
                case .item(let uri): completion(.success(uri))
                case .fail(let why): completion(.failure(ProtocolError(.noExist, "\(link): \(why)")))
                case .follow(let next) where hops < ShareLink.maxHops: ask(next)
                case .follow(let next):
                    completion(.failure(ProtocolError(.noExist, "\(link): the share link leads to \(next), not to a Deezer item")))
                }
            }
        }
        ask(link)
    }
}
