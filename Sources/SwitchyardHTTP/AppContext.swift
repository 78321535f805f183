import Hummingbird
import Logging

/// The request context of every Switchyard route.
public struct AppContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    /// Bodies are read by ``JSONIO`` with the policy's own limit.
    public var maxUploadSize: Int { 1 << 20 }
}
