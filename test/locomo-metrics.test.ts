import { describe, expect, it } from 'vitest';
import { RecallTable, normaliseEvidence, parseConversation, parseSessionDate, recallAtK, turnContent } from '../bench/locomo-data.js';

/** The LoCoMo bench's scoring, on handmade data: a bug here would silently misreport every number. */
describe('evidence ids', () => {
  it('splits, repairs and filters the malformed ids the README lists', () => {
    expect(normaliseEvidence(['D8:6; D9:17'])).toEqual(['D8:6', 'D9:17']);
    expect(normaliseEvidence(['D:11:26'])).toEqual(['D11:26']);
    expect(normaliseEvidence(['D9:1 D4:4 D4'])).toEqual(['D9:1', 'D4:4']);
    expect(normaliseEvidence(['D'])).toEqual([]);
    expect(normaliseEvidence(['D1:3', 'D1:3,D2:1'])).toEqual(['D1:3', 'D2:1']);
  });
});

describe('recall@k', () => {
  it('is the share of evidence ids among the first k retrieved', () => {
    const retrieved = ['D1:1', 'D1:2', 'D2:5', 'D3:1'];
    expect(recallAtK(retrieved, ['D1:2'], 1)).toBe(0);
    expect(recallAtK(retrieved, ['D1:2'], 2)).toBe(1);
    expect(recallAtK(retrieved, ['D1:1', 'D3:1'], 3)).toBe(0.5);
    expect(recallAtK(retrieved, ['D1:1', 'D3:1'], 20)).toBe(1);
    expect(() => recallAtK(retrieved, [], 5)).toThrow();
  });

  it('averages per question, overall and per category', () => {
    const table = new RecallTable();
    table.add(1, ['D1:1'], ['D1:1']); // r1 = 1
    table.add(1, ['D9:9', 'D1:1'], ['D1:1', 'D2:2']); // r1 = 0, r5 = 0.5
    table.add(4, [], ['D3:3']); // 0 everywhere
    const json = table.toJSON();
    expect(json.questions).toBe(3);
    expect(json.by_category['1']).toEqual({ r1: 0.5, r5: 0.75, r10: 0.75, r20: 0.75 });
    expect(json.by_category['4']).toEqual({ r1: 0, r5: 0, r10: 0, r20: 0 });
    expect(json.overall).toEqual({ r1: 0.333, r5: 0.5, r10: 0.5, r20: 0.5 });
  });
});

describe('conversation files', () => {
  it('keeps categories 1–4 with evidence, orders sessions by number and dates them', () => {
    const conversation = parseConversation('t', {
      speaker_a: 'Ann',
      speaker_b: 'Bo',
      session_2_date_time: '10:05 am on 3 June, 2023',
      session_2: [{ speaker: 'Bo', dia_id: 'D2:1', text: 'Later.' }],
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [{ speaker: 'Ann', dia_id: 'D1:1', text: 'Look!', blip_caption: 'a photo of a cat' }],
      session_1_summary: 'ignored',
      qa: [
        { question: 'q1', answer: 'a', evidence: ['D1:1'], category: 4 },
        { question: 'adversarial', evidence: ['D1:1'], category: 5 },
        { question: 'no evidence', evidence: [], category: 2 },
        { question: 'only malformed', evidence: ['D'], category: 1 },
      ],
    });
    expect(conversation.sessions.map((s) => s.number)).toEqual([1, 2]);
    expect(conversation.sessions[0]?.date).toBe(new Date(2023, 4, 8, 13, 56).getTime());
    expect(conversation.questions.map((q) => q.question)).toEqual(['q1']);
    expect(turnContent(conversation.sessions[0]?.turns[0] ?? { speaker: '', dia_id: '', text: '' })).toBe('Ann: Look! [shared an image: a photo of a cat]');
  });

  it('reads 12 am/pm correctly and rejects dates it does not understand', () => {
    expect(parseSessionDate('12:30 am on 1 January, 2024')).toBe(new Date(2024, 0, 1, 0, 30).getTime());
    expect(parseSessionDate('12:30 pm on 1 January, 2024')).toBe(new Date(2024, 0, 1, 12, 30).getTime());
    expect(() => parseSessionDate('yesterday')).toThrow(/unrecognised/);
  });
});
