import { describe, expect, it } from 'vitest';
import { CodedError } from '../../lib/errors.js';

class DoorError extends CodedError<'LOCKED' | 'JAMMED'> {}

describe('CodedError', () => {
  it('carries a stable code and an English message, and is an Error', () => {
    const error = new CodedError('DISK_FULL', 'The disk is full.');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('DISK_FULL');
    expect(error.message).toBe('The disk is full.');
  });

  it('is named after the class that was thrown, subclasses included', () => {
    expect(new CodedError('X', 'x').name).toBe('CodedError');
    const error = new DoorError('LOCKED', 'The door is locked.');
    expect(error.name).toBe('DoorError');
    expect(error).toBeInstanceOf(CodedError);
    expect(String(error)).toBe('DoorError: The door is locked.');
  });

  it('keeps the cause it is given, and has no cause property without one', () => {
    const cause = new Error('EACCES');
    expect(new DoorError('JAMMED', 'The door is jammed.', { cause }).cause).toBe(cause);
    expect('cause' in new DoorError('JAMMED', 'The door is jammed.')).toBe(false);
    expect('cause' in new DoorError('JAMMED', 'The door is jammed.', { cause: undefined })).toBe(false);
  });
});
