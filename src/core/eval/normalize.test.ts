import assert from 'node:assert/strict';
import { canonicalNumber, normalizeAnswer } from './normalize';

describe('eval normalizeAnswer', () => {
  it('ignores case, whitespace, punctuation and articles', () => {
    assert.equal(normalizeAnswer('  The  Eiffel\tTower! '), 'eiffel tower');
    assert.equal(normalizeAnswer('**Paris.**'), 'paris');
    assert.equal(normalizeAnswer('"Don\'t panic"'), 'don t panic');
    assert.equal(normalizeAnswer('New-York'), normalizeAnswer('new york'));
  });

  it('drops only a leading article, and never the whole answer', () => {
    assert.equal(normalizeAnswer('A cat'), 'cat');
    assert.equal(normalizeAnswer('Vitamin A'), 'vitamin a');
    assert.notEqual(normalizeAnswer('vitamin a'), normalizeAnswer('vitamin b'));
    assert.equal(normalizeAnswer('A'), 'a');
    assert.equal(normalizeAnswer('The'), 'the');
  });

  it('treats a number the same however it is written', () => {
    for (const spelled of ['1000', '1,000', '1000.0', '1000.00', '01000', '1e3', '1.0E3', '$1,000', '1,000.']) assert.equal(normalizeAnswer(spelled), '1000', spelled);
    assert.equal(normalizeAnswer('0.50'), '0.5');
    assert.equal(normalizeAnswer('-3.10'), '-3.1');
    assert.equal(normalizeAnswer('−7'), '-7', 'the Unicode minus');
    assert.equal(normalizeAnswer('-0.0'), '0');
    assert.equal(normalizeAnswer('1,234,567.890'), '1234567.89');
  });

  it('keeps numbers apart that differ, and words that contain digits', () => {
    assert.notEqual(normalizeAnswer('1000'), normalizeAnswer('100'));
    assert.notEqual(normalizeAnswer('-5'), normalizeAnswer('5'));
    assert.notEqual(normalizeAnswer('1.5'), normalizeAnswer('15'));
    assert.equal(normalizeAnswer('2nd place'), '2nd place');
    assert.equal(normalizeAnswer('COVID-19'), 'covid 19');
    assert.equal(normalizeAnswer('1,2,3'), '1 2 3', 'a list is not a thousands separator');
  });

  it('uses compatibility forms, so full-width digits and ligatures match', () => {
    assert.equal(normalizeAnswer('１２３'), '123');
    assert.equal(normalizeAnswer('ﬁnal'), 'final');
  });

  it('canonicalNumber', () => {
    assert.equal(canonicalNumber('', '007', '500'), '7.5');
    assert.equal(canonicalNumber('+', '3'), '3');
    assert.equal(canonicalNumber('-', '0', '000'), '0');
    assert.equal(canonicalNumber('', '2', '5', '-1'), '0.25');
  });
});
