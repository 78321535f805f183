import Foundation
import ProviderKit
import ProviderTestSupport

typealias FakeHost = ScriptedProviderHost

extension ScriptedProviderHost {
    /// A host answering at this target's fixture base URL.
    convenience init(routes: [String: OutboundResult] = [:], now: Date = Date(timeIntervalSince1970: 1_762_600_000)) {
        self.init(baseURL: Fixtures.baseURL, routes: routes, now: now)
    }
}
