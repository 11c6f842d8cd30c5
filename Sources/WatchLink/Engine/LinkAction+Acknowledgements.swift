import Foundation

extension LinkAction {
    /// `actions` with every ``acknowledge(_:_:)`` turned into a send: the acknowledgements of one
    /// channel and incarnation become one ``WireAcknowledgements`` frame (several, if one would pass
    /// the size limit of either live channel), sent where the last of them stood; a lone one goes
    /// as the response it stands for.
    ///
    /// An answer only ever moves later, never ahead of a record or sync that came before it, so
    /// what the engine made safe before answering stays so. Every shell calls this on the effects it
    /// performs together (a connection, on all the effects one durable sync releases), so a group's
    /// answers to fire-and-forget requests travel and settle together.
    package static func gatheringAcknowledgements(_ actions: [LinkAction]) -> [LinkAction] {
        var groups: [(channel: SessionChannel, incarnation: LinkIncarnation?, last: Int, responses: [WireResponse])] = []
        for (index, action) in actions.enumerated() {
            guard case .acknowledge(let channel, let response) = action else { continue }
            if let group = groups.firstIndex(where: { $0.channel == channel && $0.incarnation == response.incarnation }) {
                groups[group].last = index
                groups[group].responses.append(response)
            } else {
                groups.append((channel, response.incarnation, index, [response]))
            }
        }
        guard !groups.isEmpty else { return actions }
        var gathered: [LinkAction] = []
        gathered.reserveCapacity(actions.count)
        for (index, action) in actions.enumerated() {
            guard case .acknowledge(let channel, _) = action else {
                gathered.append(action)
                continue
            }
            guard let group = groups.first(where: { $0.last == index }) else { continue }
            // NB: within both live channels' limits: an answer whose message fails at once goes
            // again by user info, as the same bytes.
            for data in frames(group.responses, limit: min(SessionLimits.message, SessionLimits.userInfo)) {
                gathered.append(.send(channel, data, purpose: .response))
            }
        }
        return gathered
    }

    /// The frames that carry `responses`, each of at most `limit` bytes.
    static func frames(_ responses: [WireResponse], limit: Int) -> [Data] {
        if responses.count == 1 { return [WireCodec.encode(.response(responses[0]))] }
        // NB: the header's largest size: marker, version, kind, flags, time, incarnation, floor and
        // the count; each entry is its id and its key with the key's length.
        let header = 3 + 1 + 8 + 16 + 8 + 5
        var frames: [Data] = []
        var entries: [WireAcknowledgements.Entry] = []
        var size = header
        var first = 0
        for (index, response) in responses.enumerated() {
            let entrySize = 16 + 2 + response.idempotencyKey.utf8.count
            if size + entrySize > limit && !entries.isEmpty {
                frames.append(frame(entries, responses[first..<index]))
                entries.removeAll(keepingCapacity: true)
                size = header
                first = index
            }
            entries.append(WireAcknowledgements.Entry(requestID: response.requestID, idempotencyKey: response.idempotencyKey))
            size += entrySize
        }
        frames.append(frame(entries, responses[first...]))
        return frames
    }

    /// One acknowledgement frame for `entries`, stamped with the latest time and floor of `responses`.
    private static func frame(_ entries: [WireAcknowledgements.Entry], _ responses: ArraySlice<WireResponse>) -> Data {
        var acknowledgements = WireAcknowledgements(entries: entries, createdAt: responses.first!.createdAt)
        for response in responses {
            acknowledgements.createdAt = max(acknowledgements.createdAt, response.createdAt)
            acknowledgements.incarnation = response.incarnation
            if let floor = response.floor { acknowledgements.floor = max(acknowledgements.floor ?? floor, floor) }
        }
        return WireCodec.encode(.acknowledgements(acknowledgements))
    }
}
