import Foundation
import Testing

@testable import SwitchyardCore

/// Secret values are removed from notification bodies before they are stored.
@Suite struct NotificationRedactionTests {
    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func jsonTokensAreRemovedAtAnyDepth() throws {
        let body = Data(
            #"{"accessToken":"tok_wallet_1","paymentMethodDetail":{"card":{"cardToken":"tok_card_2","last4":"0768"}},"list":[{"token":"tok_3"}],"notifyType":"VAULTING_RESULT"}"#
                .utf8)
        let stored = text(NotificationRedaction.redact(body))
        for secret in ["tok_wallet_1", "tok_card_2", "tok_3"] { #expect(!stored.contains(secret)) }
        #expect(stored.contains("0768") && stored.contains("VAULTING_RESULT"), "the rest is kept: \(stored)")
    }

    @Test func fieldsThePluginNamesAndFormFieldsAreRemoved() {
        let json = Data(#"{"walletKey":"k_1","amount":"5"}"#.utf8)
        #expect(!text(NotificationRedaction.redact(json, extraFields: ["walletKey"])).contains("k_1"))
        let form = Data("id=1&access_token=tok_9&status=success".utf8)
        #expect(text(NotificationRedaction.redact(form)) == "id=1&access_token=%5Bredacted%5D&status=success")
    }

    @Test func bodiesWithoutSecretsAreKeptByteForByte() {
        let json = Data("{ \"b\": 1,  \"a\": \"x/y\" }".utf8)
        #expect(NotificationRedaction.redact(json) == json)
        let unreadable = Data([0xFF, 0x00, 0x7B])
        #expect(NotificationRedaction.redact(unreadable) == unreadable)
    }

    @Test func namesWrittenWithEscapesOrBlanksAreStillFound() {
        let escaped = Data(#"{"acc\u0065ssToken":"tok_1","amount":5}"#.utf8)
        #expect(!text(NotificationRedaction.redact(escaped)).contains("tok_1"))
        let spaced = Data("{\"a\":[{\"TOKEN\" \n\t : \"tok_2\"}]}".utf8)
        #expect(!text(NotificationRedaction.redact(spaced)).contains("tok_2"))
        let unicode = Data(#"{"käse":{"cvv":"123"}}"#.utf8)
        #expect(!text(NotificationRedaction.redact(unicode)).contains("123"))
    }

    @Test func valuesThatLookLikeNamesAreKeptByteForByte() {
        let json = Data(#"{"note":"token: x","quoted":"\"token\":","list":["cvv",":"],"tokén":1}"#.utf8)
        #expect(NotificationRedaction.redact(json) == json)
        let unterminated = Data(#"{"token":"tok_3"#.utf8)
        #expect(NotificationRedaction.redact(unterminated) == unterminated)
    }

    @Test func secretValuesAreReplacedWhereTheyStand() {
        let body = Data(
            "{ \"z\": 1, \"cardNumber\" : \"4111\\\"11\" , \"CVV\":123,\"pan\":null,\"token\":true,\"card\":{\"token\":[\"t1\",{\"cvc\":-1.5e3}]},\"a\":[] }"
                .utf8)
        #expect(
            text(NotificationRedaction.redact(body))
                == "{ \"z\": 1, \"cardNumber\" : \"[redacted]\" , \"CVV\":\"[redacted]\",\"pan\":\"[redacted]\",\"token\":\"[redacted]\",\"card\":{\"token\":[\"t1\",{\"cvc\":\"[redacted]\"}]},\"a\":[] }"
        )
    }

    @Test func aBodyThatIsNotJSONIsKeptAsItCame() {
        let sloppy = Data(#"{"token":"tok_4","n":01}"#.utf8)
        #expect(NotificationRedaction.redact(sloppy) == sloppy)
    }
}
