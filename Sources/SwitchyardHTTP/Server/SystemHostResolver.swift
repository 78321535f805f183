import Foundation
import SwitchyardCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The system resolver (`getaddrinfo`), run off the concurrency pool and bounded by a timeout: a
/// resolver that never answers costs a waiting thread, never a stuck delivery.
public struct SystemHostResolver: HostResolver {
    public init() {}

    /// Why a name did not resolve.
    public struct Failure: Error, Sendable {
        /// `getaddrinfo`'s code, or nil for the timeout.
        public var code: Int32?
    }

    public func resolve(_ host: String, timeout: Duration) async throws -> [IPAddress] {
        let once = Once<Result<[IPAddress], Failure>>()
        return try await withCheckedThrowingContinuation { continuation in
            once.set { continuation.resume(with: $0) }
            DispatchQueue.global().async {
                once.fire(Self.lookup(host))
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(timeout)) {
                once.fire(.failure(Failure(code: nil)))
            }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func lookup(_ host: String) -> Result<[IPAddress], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &list)
        guard code == 0 else { return .failure(Failure(code: code)) }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var node = list
        while let entry = node?.pointee {
            if let sockaddr = entry.ai_addr {
                switch entry.ai_family {
                case AF_INET:
                    let value = sockaddr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        UInt32(bigEndian: $0.pointee.sin_addr.s_addr)
                    }
                    addresses.append(.v4(value))
                case AF_INET6:
                    let bytes = sockaddr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                    }
                    addresses.append(.v6(bytes))
                default: break
                }
            }
            node = entry.ai_next
        }
        var seen = Set<IPAddress>()
        return .success(addresses.filter { seen.insert($0).inserted })
    }
}

/// Delivers the first of several racing results to a waiter, once.
private final class Once<Value: Sendable>: Sendable {
    private let receiver = Mutex<(@Sendable (Value) -> Void)?>(nil)

    func set(_ receiver: @escaping @Sendable (Value) -> Void) {
        self.receiver.withLock { $0 = receiver }
    }

    func fire(_ value: Value) {
        let receiver = self.receiver.withLock { stored -> (@Sendable (Value) -> Void)? in
            let taken = stored
            stored = nil
            return taken
        }
        receiver?(value)
    }
}
