import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// What a merchant's revocation records about the provider's part.
@Suite struct RevocationMessageTests {
    @Test func eachProviderResultHasItsOwnMessage() {
        let results: [RevokeCredentialResult?] = [
            nil, .revoked, .notSupported("no flow"), RevokeCredentialResult(status: .declined, code: "03"),
            RevokeCredentialResult(status: .notSent, code: "not_sent"),
            RevokeCredentialResult(status: .unknown, code: "http_500"),
        ]
        let messages = results.map(PaymentService.revocationMessage)
        #expect(Set(messages).count == results.count)
        #expect(messages[0].contains("the provider was not asked"))
        #expect(messages[1].contains("the provider revoked it too"))
        #expect(messages[2].contains("does not support revocation"))
        #expect(messages[3].hasSuffix("refused to revoke it (03)"))
        #expect(messages[4].hasSuffix("could not be asked to revoke it (not_sent)"))
        #expect(messages[5].hasSuffix("whether the provider revoked it is not known (http_500)"))
        #expect(messages.allSatisfy { $0.hasPrefix("revoked by the merchant") })
    }

    @Test func theProvidersMessageIsNotRepeated() {
        let result = RevokeCredentialResult(status: .declined, code: "05", message: "token tok_secret_1 refused")
        #expect(!PaymentService.revocationMessage(result).contains("tok_secret_1"))
    }
}
