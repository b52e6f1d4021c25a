import Testing
@testable import PreviewCore

@Suite struct ShareLinkTests {
    @Test func theShortLinkHostsAreShareLinks() {
        #expect(ShareLink.isShareLink("https://deezer.page.link/abc"))
        #expect(ShareLink.isShareLink("HTTPS://Link.Deezer.com/s/30abc"))
        #expect(!ShareLink.isShareLink("https://www.deezer.com/track/1"))
        #expect(!ShareLink.isShareLink("https://deezer.page.link.evil.test/abc"))
        #expect(!ShareLink.isShareLink("deezer:track:1"))
    }

    @Test func eachHopLeadsToAnItemAnotherHopOrAReason() {
        #expect(
            ShareLink.step(status: 302, location: "https://www.deezer.com/fr/track/3135556?utm_source=x", transportError: nil)
                == .item(.track(3135556)))
        #expect(
            ShareLink.step(status: 301, location: "https://link.deezer.com/s/x", transportError: nil)
                == .follow("https://link.deezer.com/s/x"))
        #expect(
            ShareLink.step(status: 302, location: "https://www.deezer.com/en/", transportError: nil)
                == .follow("https://www.deezer.com/en/"))
        #expect(
            ShareLink.step(status: 302, location: "https://www.example.com/", transportError: nil)
                == .fail("the share link leads to https://www.example.com/, not to a Deezer item"))
        #expect(
            ShareLink.step(status: 404, location: nil, transportError: nil)
                == .fail("the share link does not lead anywhere (HTTP 404)"))
        #expect(
            ShareLink.step(status: 200, location: nil, transportError: nil)
                == .fail("the share link leads to no Deezer item (HTTP 200, no redirect)"))
        #expect(
            ShareLink.step(status: 0, location: nil, transportError: "Couldn't resolve host name")
                == .fail("cannot resolve the share link: Couldn't resolve host name"))
    }
}
