import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Request context of the sandbox server: Hummingbird's core storage plus the connection's channel,
/// which the `reset` fault needs to drop the connection.
struct SandboxRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// Closes the connection abruptly: `SO_LINGER` 0 makes the kernel send a TCP RST instead of a FIN,
    /// and nothing of an HTTP answer has been written at that point.
    func resetConnection() async {
        if let options = channel as? any SocketOptionProvider {
            try? await options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close(mode: .all).get()
    }
}
