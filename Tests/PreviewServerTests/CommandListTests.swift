import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewServer

/// The one command list (`CommandList.swift`): sorted and unique as MPD's,
/// and the table, `commands` and the argument checks all come from it.
@Suite struct CommandListTests {
    @Test func theListIsSortedByNameWithEachNameOnce() {
        let names = Commands.list.map(\.name)
        #expect(names == names.sorted())
        #expect(Set(names).count == names.count)
        #expect(names.count == 124)
    }

    @Test func commandsListsExactlyTheDeclaredNames() {
        let h = Harness()
        let c = h.connect()
        let reply = h.send(c, "commands\n")
        let listed = reply.split(separator: "\n").compactMap { $0.hasPrefix("command: ") ? String($0.dropFirst(9)) : nil }
        #expect(listed == Commands.list.map(\.name))
        #expect(reply.hasSuffix("OK\n"))
        #expect(h.send(c, "notcommands\n") == "OK\n", "every permission is granted: nothing is refused")
    }

    @Test func argumentCountsComeFromTheDeclaration() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "seek 1\n") == "ACK [2@0] {seek} wrong number of arguments for \"seek\"\n")
        #expect(h.send(c, "catalogsearch tracks\n") == "ACK [2@0] {catalogsearch} too few arguments for \"catalogsearch\"\n")
        #expect(h.send(c, "play 1 2\n") == "ACK [2@0] {play} too many arguments for \"play\"\n")
    }

    @Test func mpdsOwnCommandsAskForMpdsPermissions() {
        let permissions = Dictionary(uniqueKeysWithValues: Commands.list.map { ($0.name, $0.permission) })
        #expect(permissions["ping"] == .anyone)
        #expect(permissions["status"] == .read)
        #expect(permissions["add"] == .add)
        #expect(permissions["next"] == .player)
        #expect(permissions["save"] == .control)
        #expect(permissions["enableoutput"] == .admin)
    }
}
