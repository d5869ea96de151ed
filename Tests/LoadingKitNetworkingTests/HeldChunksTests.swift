import Foundation
import LoadingKitNetworking
import Testing

private func chunk(_ text: String) -> Data {
    Data(text.utf8)
}

private func texts(_ chunks: [Data]) -> [String] {
    chunks.map { String(decoding: $0, as: UTF8.self) }
}

@Suite("The chunks held for a reader far behind", .timeLimit(.minutes(1)))
struct HeldChunksTests {
    @Test("chunks past the memory limit go to a file and come back after those in memory, in order")
    func spillsInOrder() throws {
        var held = HeldChunks(memoryLimit: 8)
        for text in ["abcd", "efgh", "ijkl", "mnop"] {
            try held.append(chunk(text))
        }
        #expect(held.isSpilled)
        #expect(texts(try held.take()) == ["abcd", "efgh"])
        #expect(texts(try held.take()) == ["ijklmnop"])
        #expect(held.isEmpty)
        #expect(try held.take().isEmpty)
        // Read to its end, the file is empty again: the next chunk is kept in memory.
        try held.append(chunk("q"))
        #expect(!held.isSpilled)
        #expect(texts(try held.take()) == ["q"])
    }

    @Test("while the file holds chunks, new ones go after them even when memory has room")
    func fileKeepsOrder() throws {
        var held = HeldChunks(memoryLimit: 4)
        try held.append(chunk("ab"))
        try held.append(chunk("cdef"))
        #expect(texts(try held.take()) == ["ab"])
        try held.append(chunk("g"))
        #expect(texts(try held.take()) == ["cdefg"])
        #expect(held.isEmpty)
    }

    @Test("the file is read back at most a read's worth at a time")
    func readsInParts() throws {
        var held = HeldChunks(memoryLimit: 0)
        let big = Data(repeating: 7, count: HeldChunks.readLimit + 10)
        try held.append(big)
        #expect(try held.take().map(\.count) == [HeldChunks.readLimit])
        #expect(try held.take().map(\.count) == [10])
        #expect(held.isEmpty)
    }

    @Test("chunks put back come before everything kept, also before the file")
    func putBackFirst() throws {
        var held = HeldChunks(memoryLimit: 4)
        try held.append(chunk("ab"))
        try held.append(chunk("cd"))
        try held.append(chunk("ef"))
        let taken = try held.take()
        #expect(texts(taken) == ["ab", "cd"])
        held.putBack(taken[1...])
        #expect(texts(try held.take()) == ["cd"])
        #expect(texts(try held.take()) == ["ef"])
    }

    @Test("dropping everything empties memory and the file")
    func removeAll() throws {
        var held = HeldChunks(memoryLimit: 2)
        try held.append(chunk("ab"))
        try held.append(chunk("cd"))
        held.removeAll()
        #expect(held.isEmpty)
        #expect(try held.take().isEmpty)
    }

    @Test("a file that cannot be made is an error, and what memory holds stays")
    func fileCannotBeMade() throws {
        let nowhere = FileManager.default.temporaryDirectory
            .appendingPathComponent("missing-\(UUID().uuidString)")
        var held = HeldChunks(memoryLimit: 2, directory: nowhere)
        try held.append(chunk("ab"))
        #expect(throws: POSIXError.self) { try held.append(chunk("cd")) }
        #expect(texts(try held.take()) == ["ab"])
        #expect(held.isEmpty)
    }

    @Test("the file has no name once open: what it holds goes with the handle")
    func fileWithoutName() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("HeldChunksTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        var held = HeldChunks(memoryLimit: 0, directory: directory)
        try held.append(chunk("secret"))
        #expect(held.isSpilled)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect(texts(try held.take()) == ["secret"])
    }

    @Test("past the file limit a chunk is refused with responseTooLarge, and what was kept stays")
    func fileLimit() throws {
        var held = HeldChunks(memoryLimit: 2, fileLimit: 4)
        try held.append(chunk("ab"))
        try held.append(chunk("cd"))
        #expect(throws: WebserviceError.self) { try held.append(chunk("efg")) }
        try held.append(chunk("ef"))
        #expect(texts(try held.take()) == ["ab"])
        #expect(texts(try held.take()) == ["cdef"])
        // Read back, the file's room is free again.
        try held.append(chunk("gh"))
        try held.append(chunk("ijkl"))
        #expect(texts(try held.take()) == ["gh"])
        #expect(texts(try held.take()) == ["ijkl"])
    }

    @Test("the files are segments, each closed once read to its end: a reader behind frees disk")
    func segmentsClosed() throws {
        var held = HeldChunks(memoryLimit: 0)
        try held.append(Data(repeating: 1, count: HeldChunks.segmentSize))
        try held.append(chunk("next"))
        #expect(held.fileCount == 2)
        var read = 0
        while read < HeldChunks.segmentSize {
            read += try held.take().reduce(0) { $0 + $1.count }
        }
        #expect(held.fileCount == 1)
        try held.append(chunk("more"))
        #expect(texts(try held.take()) == ["nextmore"])
        #expect(held.fileCount == 0)
        #expect(held.isEmpty)
    }

    @Test("each file is readable by its owner only and not inherited by a child process")
    func filesPrivate() throws {
        var held = HeldChunks(memoryLimit: 0)
        try held.append(chunk("secret"))
        #expect(held.fileCount == 1)
        #expect(held.filesArePrivate)
    }
}
