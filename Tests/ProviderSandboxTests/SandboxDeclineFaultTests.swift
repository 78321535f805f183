import Foundation
import ProviderSandbox
import Testing

/// The `decline` fault: the emulator's own decline for a share of a merchant's payments, drawn
/// deterministically from a seed and the payment's merchant reference.
@Suite struct SandboxDeclineFaultTests {
    private func statusCode(_ payment: [String: Any]) -> Int? {
        (payment["statusOutput"] as? [String: Any])?["statusCode"] as? Int
    }

    private func m2(_ sandbox: WLSandbox) -> WLClient {
        WLClient(
            root: sandbox.root, merchantId: "MERCH2", keyId: "KEYID456", secret: "secret-key-def",
            clock: sandbox.clock)
    }

    /// A card payment with the approving test card and `reference` as the merchant reference.
    private func pay(_ client: WLClient, reference: String) async throws -> WLReply {
        try await client.call(
            "POST", "payments",
            json: [
                "order": [
                    "amountOfMoney": ["amount": 1000, "currencyCode": "EUR"],
                    "references": ["merchantReference": reference],
                ],
                "cardPaymentMethodSpecificInput": [
                    "authorizationMode": "SALE",
                    "card": [
                        "cardNumber": WorldlineDirectTestCard.authorised, "expiryDate": "1230", "cvv": "123",
                        "cardholderName": "Test Holder",
                    ],
                ],
            ])
    }

    @Test func seededShareOverTwoThousandReferencesIsTheProbability() async {
        let injector = SandboxFaultInjector(declinesPayments: true)
        await injector.add([SandboxFault(kind: .decline, merchant: "A", probability: 0.3, seed: 19)])
        var declined = 0
        for index in 0..<2000 {
            if await injector.takeDecline(merchant: "A", reference: "order-\(index)") { declined += 1 }
        }
        // 0.3 ± 4 standard deviations (σ ≈ 0.0102 for 2 000 draws).
        #expect(abs(Double(declined) / 2000 - 0.3) < 0.041, "declined \(declined) of 2000")
        var other = 0
        for index in 0..<2000 {
            if await injector.takeDecline(merchant: "B", reference: "order-\(index)") { other += 1 }
        }
        #expect(other == 0, "a rule naming merchant A never declines B")
    }

    @Test func seededDrawIsTheSameForTheSameReferenceAndDiffersAcrossSeeds() async {
        let first = SandboxFaultInjector(declinesPayments: true)
        let second = SandboxFaultInjector(declinesPayments: true)
        let reseeded = SandboxFaultInjector(declinesPayments: true)
        await first.add([SandboxFault(kind: .decline, probability: 0.5, seed: 1)])
        await second.add([SandboxFault(kind: .decline, probability: 0.5, seed: 1)])
        await reseeded.add([SandboxFault(kind: .decline, probability: 0.5, seed: 2)])
        var answers: [Bool] = []
        var differences = 0
        for index in 0..<200 {
            let reference = "ref-\(index)"
            let answer = await first.takeDecline(merchant: "m", reference: reference)
            #expect(await first.takeDecline(merchant: "m", reference: reference) == answer)
            #expect(await second.takeDecline(merchant: "m", reference: reference) == answer)
            #expect(answer == (SandboxFault.draw(seed: 1, reference: reference) < 0.5))
            if await reseeded.takeDecline(merchant: "m", reference: reference) != answer { differences += 1 }
            answers.append(answer)
        }
        #expect(answers.contains(true) && answers.contains(false))
        #expect(differences > 50, "another seed draws other references (\(differences) of 200 differ)")
    }

    @Test func declineAnswersTheProvidersOwnDeclineAndClearingRecovers() async throws {
        try await withWorldlineSandbox { sandbox in
            let added = try await wlSend(
                "POST", sandbox.admin + "/faults", json: ["kind": "decline", "merchant": "MERCH1", "count": 1])
            #expect(added.status == 200)

            let declined = try await pay(sandbox.m1, reference: "decline-1")
            #expect(declined.status == 402)
            #expect(declined.errorCode == "30511001")
            let payment = declined.dict("paymentResult", "payment")
            #expect(payment["status"] as? String == "REJECTED")
            #expect(statusCode(payment) == 2)
            let id = try #require(payment["id"] as? String)
            let fetched = try await sandbox.m1.call("GET", "payments/\(id)")
            #expect(fetched.string("status") == "REJECTED")
            #expect(await sandbox.server.worldlineDirect.ledger().isEmpty)
            #expect(await sandbox.server.worldlineDirect.activeFaults().isEmpty, "count 1 is consumed")

            let approved = try await pay(sandbox.m1, reference: "decline-2")
            #expect(approved.status == 201)
            #expect(approved.payment["status"] as? String == "CAPTURED")
        }
    }

    @Test func seededDeclinesFollowTheMerchantReferenceOnTheWire() async throws {
        try await withWorldlineSandbox { sandbox in
            await sandbox.server.worldlineDirect.addFaults([
                SandboxFault(kind: .decline, merchant: "MERCH1", probability: 0.5, seed: 11)
            ])
            var outcomes: [String: Int] = [:]
            for index in 0..<40 {
                let reference = "wire-\(index)"
                let expected = SandboxFault.draw(seed: 11, reference: reference) < 0.5 ? 402 : 201
                let reply = try await pay(sandbox.m1, reference: reference)
                #expect(reply.status == expected, "\(reference)")
                outcomes[reference] = reply.status
                #expect(try await pay(m2(sandbox), reference: reference).status == 201, "MERCH2 is not affected")
            }
            #expect(Set(outcomes.values) == [201, 402])
            // The same reference sent again gets the same answer.
            for index in 0..<10 {
                let reference = "wire-\(index)"
                #expect(try await pay(sandbox.m1, reference: reference).status == outcomes[reference])
            }
            // Removing the merchant's rules: every payment is approved again.
            let cleared = try await wlSend("DELETE", sandbox.admin + "/faults?merchant=MERCH1")
            #expect(cleared.status == 204)
            for index in 0..<10 {
                #expect(try await pay(sandbox.m1, reference: "wire-\(index)").status == 201)
            }
        }
    }

    @Test func emulatorsThatCannotDeclineRefuseTheKind() async throws {
        try await withWorldlineSandbox { sandbox in
            for name in ["citcon", "antom", "sips"] {
                let refused = try await wlSend(
                    "POST", sandbox.baseURL + "/_sandbox/\(name)/faults",
                    json: [["kind": "latency"], ["kind": "decline", "probability": 0.3]])
                #expect(refused.status == 400, "\(name)")
                #expect((refused.string("error") ?? "").contains("decline"), "\(name)")
                let active = try await wlSend("GET", sandbox.baseURL + "/_sandbox/\(name)/faults")
                let rules = (try? JSONSerialization.jsonObject(with: Data(active.body))) as? [Any]
                #expect(rules?.isEmpty == true, "\(name): nothing added")
            }
        }
    }
}
