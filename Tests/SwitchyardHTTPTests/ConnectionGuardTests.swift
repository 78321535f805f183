import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import SwitchyardHTTP

/// The handlers first in every connection's pipeline: connections per client address, and the time
/// allowed to send a request head.
struct ConnectionGuardTests {
    @Test func theTallyAdmitsUpToTheLimitPerAddressAndCountsClosedConnectionsOut() {
        var tally = ConnectionTally(limitPerAddress: 2)
        let firstTwo = [tally.admit("10.0.0.1"), tally.admit("10.0.0.1")]
        let third = tally.admit("10.0.0.1")
        // Other addresses have limits of their own.
        let other = tally.admit("10.0.0.2")
        #expect(firstTwo == [true, true] && !third && other)
        #expect(tally.count("10.0.0.1") == 2)
        tally.release("10.0.0.1")
        #expect(tally.count("10.0.0.1") == 1)
        let again = tally.admit("10.0.0.1")
        #expect(again)
        tally.release("10.0.0.2")
        // An address with nothing open is forgotten; releasing it again changes nothing.
        #expect(tally.open["10.0.0.2"] == nil)
        tally.release("10.0.0.2")
        #expect(tally.open == ["10.0.0.1": 2])
    }

    /// An embedded connection from `address` through a limit handler on `shared`, made active.
    static func connection(from address: String, _ shared: ConnectionAddressLimitHandler.Shared) throws
        -> EmbeddedChannel
    {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ConnectionAddressLimitHandler(shared: shared, logger: Logger(label: "test")))
        // An embedded channel's remote address is where it "connects" to: here, the client.
        try channel.connect(to: SocketAddress(ipAddress: address, port: 40_000)).wait()
        return channel
    }

    @Test func aConnectionBeyondTheLimitOfItsAddressIsClosedAtOnceAndItsBytesDropped() throws {
        let shared = ConnectionAddressLimitHandler.Shared(limitPerAddress: 2)
        let first = try Self.connection(from: "10.0.0.1", shared)
        let second = try Self.connection(from: "10.0.0.1", shared)
        let third = try Self.connection(from: "10.0.0.1", shared)
        let other = try Self.connection(from: "10.0.0.2", shared)
        #expect(first.isActive && second.isActive && other.isActive)
        #expect(!third.isActive)
        #expect(shared.count("10.0.0.1") == 2)

        try first.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\n"))
        #expect(try first.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "GET / HTTP/1.1\r\n"))

        // Once one closes, its address may open another.
        _ = try first.finish()
        #expect(shared.count("10.0.0.1") == 1)
        let again = try Self.connection(from: "10.0.0.1", shared)
        #expect(again.isActive)
        #expect(shared.count("10.0.0.1") == 2)
        for channel in [second, again, other] { _ = try channel.finish() }
        #expect(shared.count("10.0.0.1") == 0 && shared.count("10.0.0.2") == 0)
    }

    @Test func aRefusedConnectionPassesNothingOn() throws {
        let shared = ConnectionAddressLimitHandler.Shared(limitPerAddress: 1)
        let held = try Self.connection(from: "10.0.0.1", shared)
        let refused = try Self.connection(from: "10.0.0.1", shared)
        // An embedded channel takes writes even once closed; a real one would refuse them.
        _ = try? refused.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\n"))
        #expect(try refused.readInbound(as: ByteBuffer.self) == nil)
        // Its closing does not release the connection it was never counted as.
        #expect(shared.count("10.0.0.1") == 1)
        _ = try held.finish()
    }

    /// An active embedded connection through a head timeout of one second.
    static func headTimedConnection() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(RequestHeadTimeoutHandler(timeout: .seconds(1)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    @Test func aConnectionThatSendsNoWholeHeadInTimeIsClosed() throws {
        let silent = try Self.headTimedConnection()
        silent.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(silent.isActive)
        silent.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!silent.isActive)

        // Bytes arriving do not move the deadline: only a whole head does.
        let trickling = try Self.headTimedConnection()
        for _ in 0..<4 {
            try trickling.writeInbound(ByteBuffer(string: "X"))
            trickling.embeddedEventLoop.advanceTime(by: .milliseconds(300))
        }
        #expect(!trickling.isActive)
    }

    @Test func aKeptAliveConnectionIdleAfterAnAnswerStaysAndItsNextHeadHasItsOwnDeadline() throws {
        let channel = try Self.headTimedConnection()
        let signal = { (event: RequestHeadTimeoutHandler.Signal) in
            channel.pipeline.triggerUserOutboundEvent(event, promise: nil)
        }
        try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\n\r\n"))
        signal(.headReceived)
        // Answering takes longer than the head deadline: not counted.
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        #expect(channel.isActive)
        signal(.answered)
        // Idle between requests: the idle timeout's business, not this one's.
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(channel.isActive)
        // The first byte of the next request starts its deadline.
        try channel.writeInbound(ByteBuffer(string: "GE"))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_000))
        #expect(!channel.isActive)
    }
}
