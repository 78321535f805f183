import Foundation

extension WorldlineSipsState {
    // MARK: App functions

    /// `addCard`: registers the card in the init's wallet (created on its first card).
    func addCard(_ context: InitContext, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        let card = try Self.card(fields)
        let alias = try fields.string("paymentMeanAlias")
        guard let walletId = context.merchantWalletId else { throw .format("merchantWalletId") }
        let key = Self.key(context.merchantId, walletId)
        let time = now
        var wallet = wallets[key] ?? WalletRecord(createdAt: time, lastActionAt: time)
        let mean = WorldlineSipsPaymentMean(
            paymentMeanId: String(nextSequence()), paymentMeanAlias: alias, paymentMeanBrand: card.brand,
            maskedPan: card.masked, panExpiryDate: card.expiry)
        wallet.cards.append(StoredCard(mean: mean, card: card))
        wallet.lastActionAt = time
        wallets[key] = wallet
        var body = SipsObject()
        body.set("inAppResponseCode", "00")
        body.set("paymentMeanId", mean.paymentMeanId)
        body.set("paymentMeanBrand", mean.paymentMeanBrand)
        body.set("maskedPan", mean.maskedPan)
        body.set("walletActionDateTime", SipsTime.dateTime(time))
        return SipsAnswer(body)
    }

    /// `getWalletData` of the app: the init's wallet (`25` when it has never held a card).
    func appGetWalletData(_ context: InitContext) throws(SipsFailure) -> SipsAnswer {
        let wallet = try walletRecord(context.merchantId, context.merchantWalletId)
        var body = SipsObject()
        body.set("inAppResponseCode", "00")
        body.set("walletCreationDateTime", SipsTime.dateTime(wallet.createdAt))
        body.put("walletPaymentMeanData", Self.list(wallet))
        return SipsAnswer(body)
    }

    /// `deletePaymentMean` of the app.
    func appDeletePaymentMean(_ context: InitContext, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        let time = try delete(context.merchantId, context.merchantWalletId, fields: fields)
        var body = SipsObject()
        body.set("inAppResponseCode", "00")
        body.set("walletActionDateTime", SipsTime.dateTime(time))
        return SipsAnswer(body)
    }

    // MARK: Office services

    /// `wallet/getWalletData`.
    func getWalletData(merchantId: String, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        let wallet = try walletRecord(merchantId, try fields.string("merchantWalletId"))
        var body = SipsObject()
        body.set("walletResponseCode", "00")
        body.set("walletCreationDateTime", SipsTime.dateTime(wallet.createdAt))
        body.set("walletActionDateTime", SipsTime.dateTime(wallet.lastActionAt))
        body.put("walletPaymentMeanDataList", Self.list(wallet))
        return SipsAnswer(body)
    }

    /// `wallet/deletePaymentMean`.
    func deletePaymentMean(merchantId: String, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        let time = try delete(merchantId, try fields.string("merchantWalletId"), fields: fields)
        var body = SipsObject()
        body.set("walletResponseCode", "00")
        body.set("walletActionDateTime", SipsTime.dateTime(time))
        return SipsAnswer(body)
    }

    // MARK: Shared

    private func walletRecord(_ merchantId: String, _ walletId: String?) throws(SipsFailure) -> WalletRecord {
        guard let walletId, let wallet = wallets[Self.key(merchantId, walletId)] else {
            throw SipsFailure("25", field: "merchantWalletId")
        }
        return wallet
    }

    private func delete(_ merchantId: String, _ walletId: String?, fields: SipsFields) throws(SipsFailure) -> Date {
        let id = try Self.paymentMeanId(fields)
        var wallet = try walletRecord(merchantId, walletId)
        guard let index = wallet.cards.firstIndex(where: { $0.mean.paymentMeanId == id }) else {
            throw SipsFailure("25", field: "paymentMeanId")
        }
        let time = now
        wallet.cards.remove(at: index)
        wallet.lastActionAt = time
        wallets[Self.key(merchantId, walletId ?? "")] = wallet
        return time
    }

    private static func list(_ wallet: WalletRecord) -> SipsJSON {
        .array(
            wallet.cards.map { stored in
                var item = SipsObject()
                item.set("paymentMeanId", stored.mean.paymentMeanId)
                item.set("paymentMeanAlias", stored.mean.paymentMeanAlias)
                item.set("paymentMeanBrand", stored.mean.paymentMeanBrand)
                item.set("maskedPan", stored.mean.maskedPan)
                item.set("panExpiryDate", stored.mean.panExpiryDate)
                return item.json
            })
    }
}
