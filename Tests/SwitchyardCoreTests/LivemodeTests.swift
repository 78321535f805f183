import Foundation
import Testing

@testable import SwitchyardCore

/// Which environments are live, what a key's secret says of its mode, and which routing candidates a key of
/// each mode gets.
struct LivemodeTests {
    static func account(_ environment: String) -> ProviderAccount {
        ProviderAccount(
            id: UUID(), tenantId: UUID(), name: environment, pluginId: "p", environment: environment,
            baseURL: "https://p.example", credentials: [:], secretFields: [], enabled: true,
            createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test func environmentsAreTestLiveOrRefused() throws {
        #expect(Livemode.of(environment: "sandbox") == false)
        #expect(Livemode.of(environment: "test") == false)
        #expect(Livemode.of(environment: "production") == true)
        #expect(Livemode.of(environment: "live") == true)
        for unknown in ["staging", "Production", "", " live"] {
            #expect(Livemode.of(environment: unknown) == nil)
            #expect {
                try Livemode.validate(environment: unknown)
            } throws: { error in
                (error as? CoreError)?.code == .invalidEnvironment && (error as? CoreError)?.param == "environment"
            }
        }
        try Livemode.validate(environment: "production")
        #expect(Self.account("production").livemode)
        #expect(!Self.account("sandbox").livemode)
    }

    @Test func aKeysSecretAndShownPrefixNameItsMode() {
        let live = APIKey.secret(livemode: true, random: "abcdefghijkl")
        let test = APIKey.secret(livemode: false, random: "abcdefghijkl")
        #expect(live == "sk_live_abcdefghijkl")
        #expect(test == "sk_test_abcdefghijkl")
        #expect(APIKey.shownPrefix(of: live, livemode: true) == "sk_live_abcdefgh")
        #expect(APIKey.shownPrefix(of: test, livemode: false) == "sk_test_abcdefgh")
        // A key made before modes existed is a test key.
        let old = APIKey(
            id: UUID(), tenantId: UUID(), prefix: "sk_abcdefgh", name: "old", scopes: [.payments],
            createdAt: Date(timeIntervalSince1970: 0))
        #expect(!old.livemode)
    }

    @Test func aKeyOfEachModeRoutesOnlyToItsAccounts() {
        let accounts = ["sandbox", "test", "production", "live"].map(Self.account)
        let all = Dictionary(
            uniqueKeysWithValues: accounts.map { ($0.id, RoutingCandidate(account: $0, manifest: nil)) })
        let test = Livemode.candidates(all, livemode: false)
        let live = Livemode.candidates(all, livemode: true)
        #expect(Set(test.values.map(\.account.environment)) == ["sandbox", "test"])
        #expect(Set(live.values.map(\.account.environment)) == ["production", "live"])
        #expect(Livemode.candidates(all, livemode: nil).count == 4)
        let refusal = Livemode.noAccount(livemode: true)
        #expect(refusal.code == .noAccountForMode)
        #expect(refusal.message.contains("live key") && refusal.message.contains("test accounts"))
    }
}
