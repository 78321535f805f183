import Foundation
import ProviderKit
import ProviderTestSupport

typealias FakeHost = ScriptedProviderHost

extension ScriptedProviderHost {
    /// A host answering at this target's fixture base URL.
    convenience init(routes: [String: OutboundResult] = [:], now: Date = Fixtures.now) {
        self.init(baseURL: Fixtures.baseURL, routes: routes, now: now)
    }
}
