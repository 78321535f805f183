import Foundation
import NIOCore
import Testing

@testable import PluginHost
@testable import PluginWorkerCore

/// The binary frames between the server and its plugin workers.
@Suite("Worker frames")
struct WorkerFrameTests {
    static let request = Data(#"{"account":{"id":"a"},"request":{"amount":"12.00","note":"é\u0000"}}"#.utf8)

    static let frames: [WorkerFrame] = [
        .invoke(id: 7, method: "authorize", clockMs: 1_800_000_000_123, request: request),
        .invoke(id: .max, method: "", clockMs: -1, request: Data()),
        .reply(id: 7, json: Data(#"{"result":{"kind":"authorized"}}"#.utf8)),
        .cancel(id: 42),
        .send(id: 1, request: Data([0, 1, 2, 0xff])),
        .sendResult(id: 1, clockMs: 1_800_000_000_999, result: Data(#"{"kind":"response"}"#.utf8)),
        .log(level: 4, message: "hello ü", metadata: #"{"k":"v"}"#),
        .log(level: -3, message: "", metadata: nil),
        .ready,
        .failed(reason: "the plugin's create returned no instance"),
    ]

    @Test(arguments: frames)
    func roundTrips(_ frame: WorkerFrame) throws {
        let body = try frame.encoded()
        #expect(try WorkerFrame.decode(body) == frame)
        let framed = try frame.framed()
        #expect(Array(framed.dropFirst(WorkerFrame.prefixBytes)) == body)
        let length = framed.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(length == body.count)
    }

    /// The framing both ends use cuts the same frames from a stream however its reads split it: the
    /// worker's reader and the server's NIO decoder.
    @Test func bothEndsCutTheSameFramesFromAStreamSplitAnywhere() throws {
        let stream = try Self.frames.flatMap { try $0.framed() }
        for cut in [1, 2, 3, 5, 21, 64, stream.count] {
            var reader = WorkerFrameReader()
            let processor = NIOSingleStepByteToMessageProcessor(WorkerFrameDecoder())
            var read: [WorkerFrame] = []
            var decoded: [WorkerFrame] = []
            for start in stride(from: 0, to: stream.count, by: cut) {
                let piece = Array(stream[start..<min(start + cut, stream.count)])
                piece.withUnsafeBytes { reader.append($0) }
                while let frame = try reader.next() { read.append(frame) }
                try processor.process(buffer: ByteBuffer(bytes: piece)) { decoded.append($0) }
            }
            #expect(read == Self.frames, "the worker's reader, reads of \(cut) bytes")
            #expect(decoded == Self.frames, "the server's decoder, reads of \(cut) bytes")
        }
        var encoded = ByteBuffer()
        try WorkerFrameEncoder().encode(data: Self.frames[0], out: &encoded)
        #expect(Array(encoded.readableBytesView) == (try Self.frames[0].framed()))
    }

    @Test func aLengthPastTheLimitEndsTheStreamBeforeItsBytesArrive() throws {
        var reader = WorkerFrameReader()
        let tooLong = UInt32(WorkerFrame.maximumBytes + 1).bigEndian
        withUnsafeBytes(of: tooLong) { reader.append($0) }
        #expect(throws: WorkerFrameError.oversized(WorkerFrame.maximumBytes + 1)) { try reader.next() }
        var decoder = WorkerFrameDecoder()
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32(WorkerFrame.maximumBytes + 1))
        #expect(throws: WorkerFrameError.oversized(WorkerFrame.maximumBytes + 1)) {
            try decoder.decode(buffer: &buffer)
        }
        var garbage = ByteBuffer(bytes: [0, 0, 0, 21] + [UInt8](repeating: 0xee, count: 21))
        #expect(throws: WorkerFrameError.unknownKind(0xee)) { try decoder.decode(buffer: &garbage) }
    }

    @Test func payloadIsCarriedRawAfterTheHeader() throws {
        let body = try WorkerFrame.invoke(id: 1, method: "sync", clockMs: 5, request: Self.request).encoded()
        #expect(body.count == WorkerFrame.headerBytes + 4 + Self.request.count)
        #expect(body[0] == WorkerFrame.Kind.invoke.rawValue)
        #expect(Data(body.suffix(Self.request.count)) == Self.request)
    }

    @Test func everyTruncationIsRejected() throws {
        let body = try WorkerFrame.invoke(id: 3, method: "refund", clockMs: 9, request: Self.request).encoded()
        // Shorter than the header, or than the label length says.
        for length in 0..<(WorkerFrame.headerBytes + 6) {
            #expect(throws: WorkerFrameError.truncated) { try WorkerFrame.decode(Array(body.prefix(length))) }
        }
    }

    @Test func unknownKindIsRejected() throws {
        var body = try WorkerFrame.cancel(id: 1).encoded()
        for kind: UInt8 in [0, 9, 0xff] {
            body[0] = kind
            #expect(throws: WorkerFrameError.unknownKind(kind)) { try WorkerFrame.decode(body) }
        }
    }

    @Test func oversizedFramesAreRefusedBothWays() {
        let huge = Data(count: WorkerFrame.maximumBytes)
        #expect(throws: WorkerFrameError.oversized(WorkerFrame.maximumBytes + WorkerFrame.headerBytes)) {
            try WorkerFrame.reply(id: 1, json: huge).encoded()
        }
        #expect(throws: WorkerFrameError.self) { try WorkerFrame.reply(id: 1, json: huge).framed() }
        let body = [UInt8](repeating: 0, count: WorkerFrame.maximumBytes + 1)
        #expect(throws: WorkerFrameError.oversized(body.count)) { try WorkerFrame.decode(body) }
    }

    @Test func malformedFieldsAreRejected() throws {
        // A method that is not UTF-8.
        var body = try WorkerFrame.invoke(id: 1, method: "ab", clockMs: 0, request: Data()).encoded()
        body[WorkerFrame.headerBytes] = 0xff
        #expect(throws: WorkerFrameError.malformed) { try WorkerFrame.decode(body) }
        // A cancel with a payload.
        let cancel = try WorkerFrame.cancel(id: 1).encoded() + [1]
        #expect(throws: WorkerFrameError.malformed) { try WorkerFrame.decode(cancel) }
        // A log level that does not fit 32 bits.
        var log = try WorkerFrame.log(level: 1, message: "m", metadata: nil).encoded()
        log[9] = 0x7f
        #expect(throws: WorkerFrameError.malformed) { try WorkerFrame.decode(log) }
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0..<64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty { bytes[0] = UInt8.random(in: 0...9, using: &generator) }
            _ = try? WorkerFrame.decode(bytes)
        }
    }

    /// Prints the cost of one frame (measured, never asserted).
    @Test func encodeDecodeCost() throws {
        let reply = Data(repeating: UInt8(ascii: "x"), count: 2_048)
        let frame = WorkerFrame.reply(id: 99, json: reply)
        let rounds = 20_000
        let clock = ContinuousClock()
        var decoded = 0
        let elapsed = try clock.measure {
            for _ in 0..<rounds {
                if case .reply(_, let json) = try WorkerFrame.decode(try frame.encoded()) { decoded += json.count }
            }
        }
        print("worker frame encode+decode (2 KiB reply): \(elapsed / rounds) per frame")
        #expect(decoded == rounds * reply.count)
    }
}
